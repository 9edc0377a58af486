// The Java kafka-clients CreatePartitions, OffsetDelete and DeleteGroups scenario, run unchanged against Apache Kafka
// (the control) and the Nereus broker: a topic grows from 1 to 3 partitions and refuses to shrink; while its consumer
// is a member, a group cannot be deleted, nor can the offsets of the topic it subscribed to, but those of another
// topic can; once the consumer left the group can be deleted, is then no longer listed, and a second deletion finds
// no group.
import { expect } from "vitest";
import { type JavaDriver, type PartitionsAndGroupsResult, runDriver } from "../../src/index.js";

export async function runPartitionsAndGroupsScenario(
  driver: JavaDriver,
  bootstrap: string,
  topic: string,
): Promise<void> {
  await runDriver(driver, "create-topic", { bootstrap, topic, partitions: 1 });
  expect(
    await runDriver<PartitionsAndGroupsResult>(driver, "partitions-and-groups", {
      bootstrap,
      topic,
      group: `${topic}-group`,
    }),
  ).toEqual({
    lowerCount: "InvalidPartitionsException",
    partitions: 3,
    whileMember: "GroupNotEmptyException",
    offsetsOfSubscribed: "GroupSubscribedToTopicException",
    offsetsOfOther: "none",
    committedAfter: "topic-0",
    afterClose: "none",
    listedAfterDelete: false,
    again: "GroupIdNotFoundException",
  });
}
