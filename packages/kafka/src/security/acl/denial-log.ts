// Logging of authorization denials without flooding: the first denial of a (principal, API) pair is logged at info,
// repeats within the quiet period only at debug; the next info line reports how many were folded. The memory is
// bounded (the table is cleared when it grows past its limit).
import type { KafkaBrokerLogger } from "../../logging/broker-logger.js";

const QUIET_PERIOD_MS = 10_000;
const MAX_TRACKED = 1_000;

/** One denied check. */
export interface Denial {
  readonly principal: string;
  readonly host: string;
  readonly api: string;
  readonly operation: string;
  readonly resource: string;
}

/** See the module comment. */
export class DenialLog {
  readonly #logger: KafkaBrokerLogger;
  readonly #clock: () => number;
  readonly #recent = new Map<string, { loggedAtMillis: number; folded: number }>();

  constructor(logger: KafkaBrokerLogger, clock: () => number) {
    this.#logger = logger;
    this.#clock = clock;
  }

  denied(denial: Denial): void {
    const key = `${denial.principal}\0${denial.api}`;
    const now = this.#clock();
    const recent = this.#recent.get(key);
    if (recent !== undefined && now - recent.loggedAtMillis < QUIET_PERIOD_MS) {
      recent.folded += 1;
      this.#logger.debug("authorization denied", { ...denial });
      return;
    }
    if (this.#recent.size >= MAX_TRACKED) this.#recent.clear();
    this.#recent.set(key, { loggedAtMillis: now, folded: 0 });
    this.#logger.info("authorization denied", { ...denial, foldedSinceLastLine: recent?.folded ?? 0 });
  }
}
