// Conformance suites and test helpers of @nereus/cursor (filled by the cursor conformance suite).
export {};
