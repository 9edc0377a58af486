import { describe, expect, it } from "vitest";
import { LookupOutcome, ServerError } from "../protocol/index.js";
import { lookupAnswer } from "./topic-lookup.js";

const TOPIC = "persistent://public/default/orders-partition-1";
const SELF = "pulsar://10.0.0.1:6650";
const OTHER = "pulsar://10.0.0.2:6650";

describe("lookupAnswer", () => {
  it("connects to this broker when it serves every topic alone", () => {
    expect(
      lookupAnswer(1n, TOPIC, {
        advertisedUrl: SELF,
        advertisedUrlTls: "pulsar+ssl://10.0.0.1:6651",
        topicOwnership: undefined,
      }),
    ).toEqual({
      requestId: 1n,
      response: LookupOutcome.Connect,
      brokerServiceUrl: SELF,
      brokerServiceUrlTls: "pulsar+ssl://10.0.0.1:6651",
      authoritative: true,
    });
  });

  it("redirects to the owner, connects on the owner, and fails retriably while nobody owns the topic", () => {
    const asked: string[] = [];
    const owners = new Map<string, { url: string; urlTls?: string }>([[TOPIC, { url: OTHER }]]);
    let owned = false;
    const ownership = {
      ownsTopic: () => owned,
      ownerUrls: (topic: string) => {
        asked.push(topic);
        return owners.get(topic);
      },
    };
    const onSelf = { advertisedUrl: SELF, advertisedUrlTls: undefined, topicOwnership: ownership };
    expect(lookupAnswer(2n, TOPIC, onSelf)).toEqual({
      requestId: 2n,
      response: LookupOutcome.Redirect,
      brokerServiceUrl: OTHER,
      authoritative: true,
    });
    owned = true;
    expect(lookupAnswer(3n, TOPIC, onSelf)).toEqual({
      requestId: 3n,
      response: LookupOutcome.Connect,
      brokerServiceUrl: SELF,
      authoritative: true,
    });
    owned = false;
    owners.clear();
    expect(lookupAnswer(4n, TOPIC, onSelf)).toMatchObject({
      requestId: 4n,
      response: LookupOutcome.Failed,
      error: ServerError.ServiceNotReady,
    });
    expect(asked).toEqual([TOPIC, TOPIC]);
  });

  it("names the owner's TLS URL in the redirect when the owner has a TLS listener", () => {
    const ownership = {
      ownsTopic: () => false,
      ownerUrls: () => ({ url: OTHER, urlTls: "pulsar+ssl://10.0.0.2:6651" }),
    };
    expect(
      lookupAnswer(5n, TOPIC, { advertisedUrl: SELF, advertisedUrlTls: undefined, topicOwnership: ownership }),
    ).toEqual({
      requestId: 5n,
      response: LookupOutcome.Redirect,
      brokerServiceUrl: OTHER,
      brokerServiceUrlTls: "pulsar+ssl://10.0.0.2:6651",
      authoritative: true,
    });
  });
});
