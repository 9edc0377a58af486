import { describeCursorConformance } from "./cursor-conformance.js";
import { memoryCursorFixture } from "./memory-cursor-fixture.js";

describeCursorConformance("in-memory stores", memoryCursorFixture);
