// The web console (/console on the admin port) in real headless Chromium — Debian's package, installed when
// missing — over a broker where a kafkajs producer wrote a known number of records per partition and a kafkajs group
// committed: the rendered DOM shows the topic's start and end offsets per partition, the group's lag per partition
// and in total, the broker's listeners and health; screenshots decode to a full-size, non-blank image; the page
// follows new records without a reload, and says so when the broker goes away. NEREUS_CONSOLE_SCREENSHOTS=<dir>
// keeps the screenshots for a look.
import { writeFileSync } from "node:fs";
import path from "node:path";
import { Kafka, logLevel } from "kafkajs";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { FIRST_RECORDS, MORE_RECORDS, TOTAL_LAG, type ProduceTo, seedTopicAndGroup } from "./admin-scenario.js";
import { type InProcessBroker, startInProcess, testConfig } from "./support/broker-fixture.js";
import { HeadlessChromium, ensureChromium } from "./support/headless-chromium.js";
import { colourStatistics, decodePng } from "./support/png-image.js";

const WIDTH = 1280;
const HEIGHT = 900;

let chromium: string;
let broker: InProcessBroker | undefined;
let browser: HeadlessChromium | undefined;

beforeAll(async () => {
  chromium = await ensureChromium();
}, 20 * 60_000);

afterAll(async () => {
  await browser?.close();
  await broker?.broker.close("test finished");
});

function kafkajsProducer(kafka: Kafka): ProduceTo {
  return async (topic, partition, count, round) => {
    const producer = kafka.producer();
    await producer.connect();
    try {
      await producer.send({
        topic,
        acks: -1,
        messages: Array.from({ length: count }, (_, index) => ({
          key: `k${String(index)}`,
          value: `${round}-${String(partition)}-${String(index)}`,
          partition,
        })),
      });
    } finally {
      await producer.disconnect();
    }
  };
}

/** What the console shows, read from its DOM. */
interface RenderedConsole {
  readonly health: string;
  readonly listeners: Record<string, string>;
  readonly partitions: { partition: string; start: string; end: string; lag: string }[];
  readonly group: { state: string; lag: string } | undefined;
  readonly groupPartitions: { partition: string; committed: string; end: string; lag: string }[];
}

function readConsole(page: HeadlessChromium, topic: string, group: string): Promise<RenderedConsole> {
  return page.evaluate<RenderedConsole>(`(() => {
    const field = (row, name) => row.querySelector('[data-field="' + name + '"]')?.textContent ?? "";
    const rows = (selector) => [...document.querySelectorAll(selector)];
    const topicRows = rows('#topics tr.child').filter((row) => row.dataset.topic === ${JSON.stringify(topic)});
    const groupRow = rows('#groups tr.parent').find((row) => row.dataset.group === ${JSON.stringify(group)});
    const groupRows = rows('#groups tr.child').filter((row) => row.dataset.group === ${JSON.stringify(group)});
    return {
      health: document.getElementById("health").textContent,
      listeners: Object.fromEntries(rows('#listeners tr[data-listener]').map((row) => [row.dataset.listener, row.cells[2].textContent])),
      partitions: topicRows.map((row) => ({ partition: row.dataset.partition, start: field(row, "startOffset"), end: field(row, "endOffset"), lag: field(row, "lag") })),
      group: groupRow && { state: field(groupRow, "state"), lag: field(groupRow, "lag") },
      groupPartitions: groupRows.map((row) => ({ partition: row.dataset.partition, committed: field(row, "committedOffset"), end: field(row, "endOffset"), lag: field(row, "lag") })),
    };
  })()`);
}

/** Takes a screenshot and checks it; NEREUS_CONSOLE_SCREENSHOTS=<dir> also keeps it there as `<name>.png`. */
async function checkedScreenshot(page: HeadlessChromium, name: string): Promise<Buffer> {
  const png = await page.screenshot();
  const keepIn = process.env.NEREUS_CONSOLE_SCREENSHOTS;
  if (keepIn !== undefined && keepIn !== "") writeFileSync(path.join(keepIn, `${name}.png`), png);
  const image = decodePng(png);
  expect([image.width, image.height]).toEqual([WIDTH, HEIGHT]);
  const colours = colourStatistics(image);
  // A blank or unstyled page has a handful of colours and almost every pixel the background's.
  expect(colours.distinctColours).toBeGreaterThanOrEqual(32);
  expect(colours.nonBackgroundShare).toBeGreaterThanOrEqual(0.05);
  return png;
}

describe("the web console in headless Chromium", () => {
  test("shows the topic's offsets and the group's lag, follows new records, and reports a broker that went away", async () => {
    broker = await startInProcess(testConfig("embedded"));
    const kafka = new Kafka({ clientId: "console-test", brokers: [broker.bootstrap], logLevel: logLevel.NOTHING });
    const produce = kafkajsProducer(kafka);
    const { topic, group, endOffsets, committedOffsets } = await seedTopicAndGroup(kafka, produce, "console");
    const consoleUrl = `http://127.0.0.1:${String(broker.broker.adminPort)}/console`;
    const page = await fetch(consoleUrl);
    expect(page.headers.get("content-security-policy")).toContain("default-src 'none'");
    expect(await page.text()).toContain('<script type="module" src="/console/console.js">');

    browser = await HeadlessChromium.launch(chromium, WIDTH, HEIGHT);
    await browser.navigate(consoleUrl);
    await browser.waitUntil(
      "the topic and the group on the page",
      `document.body.dataset.loaded === "true" && document.querySelector('#groups tr.child[data-group=${JSON.stringify(group)}]')`,
    );
    const shown = await readConsole(browser, topic, group);
    expect(shown.health).toBe("ok");
    const pulsarPort = broker.broker.pulsarPort;
    expect(shown.listeners).toEqual({
      kafka: broker.bootstrap,
      ...(pulsarPort === undefined ? {} : { pulsar: `pulsar://127.0.0.1:${String(pulsarPort)}` }),
      admin: `127.0.0.1:${String(broker.broker.adminPort)}`,
    });
    expect(shown.partitions).toEqual(
      endOffsets.map((end, partition) => ({
        partition: String(partition),
        start: "0",
        end: String(end),
        lag: `${group}: ${String(MORE_RECORDS[partition])}`,
      })),
    );
    expect(shown.group).toEqual({ state: "Empty", lag: String(TOTAL_LAG) });
    expect(shown.groupPartitions).toEqual(
      endOffsets.map((end, partition) => ({
        partition: String(partition),
        committed: String(committedOffsets[partition]),
        end: String(end),
        lag: String(MORE_RECORDS[partition]),
      })),
    );
    const html = await browser.evaluate<string>("document.documentElement.outerHTML");
    expect(html).toContain(`data-topic="${topic}"`);
    expect(html).toContain(`data-group="${group}"`);
    const before = await checkedScreenshot(browser, "console-loaded");

    // Five more records on partition 1: the page shows them (and the larger lag) on a refresh, without a reload.
    await produce(topic, 1, 5, "later");
    const newEnd = FIRST_RECORDS[1]! + MORE_RECORDS[1]! + 5;
    await browser.waitUntil(
      "partition 1's new end offset",
      `document.querySelector('#topics tr.child[data-topic=${JSON.stringify(topic)}][data-partition="1"] [data-field="endOffset"]')?.textContent === "${String(newEnd)}"`,
    );
    const later = await readConsole(browser, topic, group);
    expect(later.group).toEqual({ state: "Empty", lag: String(TOTAL_LAG + 5) });
    expect(later.partitions[1]).toEqual({
      partition: "1",
      start: "0",
      end: String(newEnd),
      lag: `${group}: ${String(MORE_RECORDS[1]! + 5)}`,
    });
    const after = await checkedScreenshot(browser, "console-refreshed");
    expect(after.equals(before)).toBe(false);

    // The broker stops: the page keeps the last data and says the broker cannot be reached.
    await broker.broker.close("test: broker goes away");
    broker = undefined;
    await browser.waitUntil("the unreachable banner", `!document.getElementById("problem").hidden`);
    expect(await browser.evaluate<string>(`document.getElementById("health").textContent`)).toBe("unreachable");
    expect(await browser.evaluate<string>(`document.getElementById("problem").textContent`)).toMatch(
      /^Cannot reach the broker's admin API/,
    );
    await checkedScreenshot(browser, "console-unreachable");
  });
});
