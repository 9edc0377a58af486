import { describeCursorHistoryProperty } from "./cursor-history-property.js";
import { memoryCursorFixture } from "./memory-cursor-fixture.js";

describeCursorHistoryProperty("in-memory stores with lost responses", memoryCursorFixture, { runs: 300 });
