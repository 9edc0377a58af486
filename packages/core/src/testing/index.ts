// @nereus/core/testing: in-memory reference providers with fault injection and the conformance suites that
// every real provider runs. Test-only; never used by production code paths.
export {};
