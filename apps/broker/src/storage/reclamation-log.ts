// The storage collector's run lines through the broker's logger: a run that released, deleted or left something
// pending, or failed, is logged at info (warn when failed); a run that found nothing to do only at debug, so the
// background passes over idle streams do not fill the log.
import type { ReclamationLogger } from "@nereus/object-wal";
import type { BrokerLogger } from "../logging/broker-logger.js";

/** Fields of a run line that show it changed something. */
const WORK_FIELDS = ["targetsReleased", "metadataRecordsDeleted", "objectsDeleted", "pendingObjects"] as const;

/** The collector's logger over `logger`. */
export function reclamationLogger(logger: BrokerLogger): ReclamationLogger {
  return {
    info: (message, fields) => {
      const worked = WORK_FIELDS.some((field) => typeof fields?.[field] === "number" && fields[field] > 0);
      if (worked) logger.info(message, fields);
      else logger.debug(message, fields);
    },
    warn: (message, fields) => logger.warn(message, fields),
  };
}
