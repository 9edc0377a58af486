// The Nereus console's script: reads the admin API (/admin/v1) and /healthz of the broker that served the page and
// renders the broker, its topics with each partition's offsets and consumer lag, and the consumer groups with their
// committed offsets and lag. Refreshes every REFRESH_MS; a failed refresh shows the reason and keeps the last data.
// Text goes into the page through textContent only (names come from clients).
/* global document, Node */

const REFRESH_MS = 3000;
/** Groups whose per-partition offsets are read on each refresh (the rest show their totals only). */
const MAX_DESCRIBED_GROUPS = 50;
const API = "/admin/v1";

async function getJson(path) {
  const response = await fetch(path, { cache: "no-store" });
  const body = await response.json().catch(() => undefined);
  if (!response.ok && path !== "/healthz") {
    const message = body && body.error ? body.error.message : `HTTP ${response.status}`;
    throw new Error(`${path}: ${message}`);
  }
  return body;
}

function element(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value !== undefined && value !== null) node.setAttribute(name, String(value));
  }
  for (const child of children) node.append(child instanceof Node ? child : String(child ?? ""));
  return node;
}

function formatNumber(value) {
  return value === null || value === undefined ? "–" : Number(value).toLocaleString("en-US");
}

function formatBytes(value) {
  if (value === null || value === undefined) return "–";
  const units = ["B", "KiB", "MiB", "GiB", "TiB"];
  let amount = value;
  let unit = 0;
  while (amount >= 1024 && unit < units.length - 1) {
    amount /= 1024;
    unit += 1;
  }
  return `${unit === 0 ? amount : amount.toFixed(1)} ${units[unit]}`;
}

function formatDuration(seconds) {
  const days = Math.floor(seconds / 86400);
  const hours = Math.floor((seconds % 86400) / 3600);
  const minutes = Math.floor((seconds % 3600) / 60);
  if (days > 0) return `${days}d ${hours}h`;
  if (hours > 0) return `${hours}h ${minutes}m`;
  return `${minutes}m ${seconds % 60}s`;
}

function numberCell(value, field, extra = {}) {
  return element("td", { class: "number", "data-field": field, ...extra }, formatNumber(value));
}

function facts(list, entries) {
  list.replaceChildren(
    ...entries.flatMap(([name, value, field]) => [
      element("dt", {}, name),
      element("dd", { "data-field": field }, value),
    ]),
  );
}

function renderBroker(broker, health) {
  document.getElementById("identity").textContent =
    `node ${broker.nodeId} · cluster ${broker.cluster} · version ${broker.version}`;
  const badge = document.getElementById("health");
  const status = health && typeof health.status === "string" ? health.status : "unreachable";
  badge.textContent = status;
  badge.dataset.status = status;
  facts(document.getElementById("broker-facts"), [
    ["Node", broker.nodeId, "nodeId"],
    ["Cluster", broker.cluster, "cluster"],
    ["Version", broker.version, "version"],
    ["Up", formatDuration(broker.uptimeSeconds), "uptime"],
    ["Started", new Date(broker.startedAt).toLocaleString(), "startedAt"],
  ]);
  const storage = broker.storage;
  facts(document.getElementById("storage-facts"), [
    ["Metadata", storage.metadata, "metadata"],
    ["Objects", storage.objects, "objects"],
    ["Default profile", storage.defaultProfile, "defaultProfile"],
    ["Materialization", storage.materialization, "materialization"],
    ["Writable", storage.writable ? "yes" : "no (full disk?)", "writable"],
  ]);
  document
    .querySelector("#listeners tbody")
    .replaceChildren(
      ...broker.listeners.map((listener) =>
        element(
          "tr",
          { "data-listener": listener.name },
          element("td", {}, [listener.name, listener.listener, listener.protocol].filter(Boolean).join(" ")),
          element("td", {}, `${listener.host}:${listener.port}`),
          element("td", {}, listener.advertised),
        ),
      ),
    );
}

/** Lags by "topic/partition": [{ group, lag }]. */
function lagsByPartition(groupDetails) {
  const lags = new Map();
  for (const group of groupDetails) {
    for (const offset of group.offsets) {
      const key = `${offset.topic}/${offset.partition}`;
      if (!lags.has(key)) lags.set(key, []);
      lags.get(key).push({ group: group.groupId, lag: offset.lag });
    }
  }
  return lags;
}

function lagCell(entries) {
  if (!entries || entries.length === 0) return element("td", { class: "empty", "data-field": "lag" }, "no group");
  const text = entries.map((entry) => `${entry.group}: ${formatNumber(entry.lag)}`).join(", ");
  const lagging = entries.some((entry) => entry.lag > 0);
  return element("td", { "data-field": "lag", class: lagging ? "lagging" : undefined }, text);
}

function renderTopics(list, lags) {
  const rows = [];
  for (const topic of list.topics) {
    rows.push(
      element(
        "tr",
        { class: "parent", "data-topic": topic.name },
        element("td", {}, `${topic.name} (${topic.partitionCount})`),
        element("td", {}, topic.profile),
        element("td", {}),
        element("td", {}),
        numberCell(topic.records, "records"),
        element("td", { class: "number", "data-field": "bytes" }, formatBytes(topic.appendedBytes)),
        element("td", {}),
      ),
    );
    for (const partition of topic.partitions) {
      rows.push(
        element(
          "tr",
          { class: "child", "data-topic": topic.name, "data-partition": partition.partition },
          element(
            "td",
            {},
            `partition ${partition.partition}${partition.state === "ACTIVE" ? "" : ` (${partition.state})`}`,
          ),
          element("td", {}, partition.profile ?? "–"),
          numberCell(partition.startOffset, "startOffset"),
          numberCell(partition.endOffset, "endOffset"),
          numberCell(partition.records, "records"),
          element("td", { class: "number", "data-field": "bytes" }, formatBytes(partition.appendedBytes)),
          lagCell(lags.get(`${topic.name}/${partition.partition}`)),
        ),
      );
    }
  }
  if (rows.length === 0) rows.push(element("tr", {}, element("td", { class: "empty", colspan: 7 }, "no topics yet")));
  document.querySelector("#topics tbody").replaceChildren(...rows);
  document.getElementById("topic-count").textContent = `(${list.topics.length}${list.next ? "+" : ""})`;
  const more = document.getElementById("topics-more");
  more.hidden = !list.next;
  more.textContent = list.next ? `Showing the first ${list.topics.length} topics.` : "";
}

function renderGroups(list, details) {
  const byId = new Map(details.map((group) => [group.groupId, group]));
  const rows = [];
  for (const group of list.groups) {
    rows.push(
      element(
        "tr",
        { class: "parent", "data-group": group.groupId },
        element("td", {}, group.groupId),
        element("td", { "data-field": "state" }, group.state),
        numberCell(group.members, "members"),
        element("td", {}),
        element("td", {}),
        numberCell(group.lag, "lag", group.lag > 0 ? { class: "number lagging" } : {}),
      ),
    );
    for (const offset of byId.get(group.groupId)?.offsets ?? []) {
      rows.push(
        element(
          "tr",
          {
            class: "child",
            "data-group": group.groupId,
            "data-topic": offset.topic,
            "data-partition": offset.partition,
          },
          element("td", {}, `${offset.topic} / ${offset.partition}`),
          element("td", {}),
          element("td", {}),
          numberCell(offset.committedOffset, "committedOffset"),
          numberCell(offset.endOffset, "endOffset"),
          numberCell(offset.lag, "lag", offset.lag > 0 ? { class: "number lagging" } : {}),
        ),
      );
    }
  }
  if (rows.length === 0) rows.push(element("tr", {}, element("td", { class: "empty", colspan: 6 }, "no groups yet")));
  document.querySelector("#groups tbody").replaceChildren(...rows);
  document.getElementById("group-count").textContent = `(${list.groups.length})`;
}

async function refresh() {
  const [health, brokers, topics, groups] = await Promise.all([
    getJson("/healthz").catch(() => undefined),
    getJson(`${API}/brokers`),
    getJson(`${API}/topics`),
    getJson(`${API}/groups`),
  ]);
  const described = groups.groups.slice(0, MAX_DESCRIBED_GROUPS);
  const details = await Promise.all(
    described.map((group) => getJson(`${API}/groups/${encodeURIComponent(group.groupId)}`).catch(() => undefined)),
  );
  const loaded = details.filter((detail) => detail !== undefined);
  renderBroker(brokers.brokers[0], health);
  renderTopics(topics, lagsByPartition(loaded));
  renderGroups(groups, loaded);
  document.body.dataset.loaded = "true";
  document.body.dataset.refreshes = String(Number(document.body.dataset.refreshes ?? "0") + 1);
}

async function loop() {
  const problem = document.getElementById("problem");
  try {
    await refresh();
    problem.hidden = true;
    document.getElementById("refreshed").textContent = `updated ${new Date().toLocaleTimeString()}`;
  } catch (error) {
    problem.hidden = false;
    problem.textContent = `Cannot reach the broker's admin API (${error.message}); retrying every ${REFRESH_MS / 1000} s.`;
    const badge = document.getElementById("health");
    badge.textContent = "unreachable";
    badge.dataset.status = "unreachable";
  }
  setTimeout(loop, REFRESH_MS);
}

loop();
