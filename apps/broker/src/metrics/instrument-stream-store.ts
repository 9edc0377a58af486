// Measures StreamStore.append: a proxy that times every append into a histogram labelled by outcome ("ok" or the
// NereusError code). Every other member passes through, bound to the real store (its private fields need that).
import { NereusError, type StreamStore } from "@nereus/core";
import type { Histogram } from "prom-client";

export function instrumentStreamStore(store: StreamStore, appendSeconds: Histogram<"outcome">): StreamStore {
  const append: StreamStore["append"] = async (...args) => {
    const started = performance.now();
    let outcome = "ok";
    try {
      return await store.append(...args);
    } catch (error) {
      outcome = NereusError.is(error) ? error.code : "error";
      throw error;
    } finally {
      appendSeconds.observe({ outcome }, (performance.now() - started) / 1000);
    }
  };
  return new Proxy(store, {
    get(target, property) {
      if (property === "append") return append;
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === "function" ? (value as (...parameters: unknown[]) => unknown).bind(target) : value;
    },
  });
}
