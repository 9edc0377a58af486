// CRC32C (Castagnoli) for @nereus/core's crc32c() (src/bytes/crc32c.ts), with the SSE4.2 crc32 instruction.
// Exports: crc32c(view, initial) -> the CRC32C of the view's bytes, continuing from `initial` (a previous result;
// 0 to start), as an unsigned 32-bit number. Only when the CPU has SSE4.2 (x86-64); otherwise the module exports
// `unsupported` (the reason) instead, and crc32c() keeps its portable implementation.
// Why: one crc32 instruction depends on the one before it (3 cycles), so a single running checksum uses a third of
// what the CPU can do. Large inputs are checksummed as three interleaved blocks, each its own running checksum, then
// joined: a checksum is linear over GF(2), so the state after a block B that started from state s equals the state
// after B from 0, XOR s advanced over |B| zero bytes — and advancing over a fixed number of zero bytes is a linear
// map of the 32-bit state, applied with four 256-entry tables built once at load.
#include <node.h>
#include <v8.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <mutex>

#if defined(__x86_64__)
#include <nmmintrin.h>
#define NEREUS_HW_CRC 1
#define HW_TARGET __attribute__((target("sse4.2")))
#endif

namespace {

#if defined(NEREUS_HW_CRC)

constexpr size_t kLongBlock = 8192;   // bytes per stream while at least 3 x 8 KiB remain
constexpr size_t kShortBlock = 256;   // then while at least 3 x 256 B remain
constexpr size_t kSmallView = 128;    // views up to this size are copied out (see Crc32cBinding)

// advance[L][k][b]: the state b << 8k advanced over L zero bytes.
uint32_t longAdvance[4][256];
uint32_t shortAdvance[4][256];

inline uint64_t Load64(const uint8_t* bytes) {
  uint64_t word;
  std::memcpy(&word, bytes, sizeof word);
  return word;
}

HW_TARGET uint32_t AdvanceOverZeros(uint32_t state, size_t length) {
  uint64_t value = state;
  for (size_t index = 0; index < length; index += 8) value = _mm_crc32_u64(value, 0);
  return static_cast<uint32_t>(value);
}

void BuildAdvanceTable(uint32_t table[4][256], size_t length) {
  uint32_t basis[32];
  for (int bit = 0; bit < 32; bit += 1) basis[bit] = AdvanceOverZeros(uint32_t{1} << bit, length);
  for (int lane = 0; lane < 4; lane += 1) {
    for (int byte = 0; byte < 256; byte += 1) {
      uint32_t value = 0;
      for (int bit = 0; bit < 8; bit += 1) {
        if ((byte >> bit) & 1) value ^= basis[lane * 8 + bit];
      }
      table[lane][byte] = value;
    }
  }
}

inline uint32_t Advance(const uint32_t table[4][256], uint32_t state) {
  return table[0][state & 0xff] ^ table[1][(state >> 8) & 0xff] ^ table[2][(state >> 16) & 0xff] ^ table[3][state >> 24];
}

// Three interleaved running checksums over blocks of `block` bytes while 3 blocks remain; returns the state.
HW_TARGET inline uint64_t ThreeWay(uint64_t state, const uint8_t*& bytes, size_t& length, size_t block, const uint32_t table[4][256]) {
  while (length >= 3 * block) {
    uint64_t second = 0;
    uint64_t third = 0;
    const uint8_t* end = bytes + block;
    do {
      state = _mm_crc32_u64(state, Load64(bytes));
      second = _mm_crc32_u64(second, Load64(bytes + block));
      third = _mm_crc32_u64(third, Load64(bytes + 2 * block));
      bytes += 8;
    } while (bytes < end);
    state = Advance(table, static_cast<uint32_t>(state)) ^ static_cast<uint32_t>(second);
    state = Advance(table, static_cast<uint32_t>(state)) ^ static_cast<uint32_t>(third);
    bytes += 2 * block;
    length -= 3 * block;
  }
  return state;
}

HW_TARGET uint32_t Crc32c(uint32_t initial, const uint8_t* bytes, size_t length) {
  uint64_t state = ~initial & 0xffffffffu;
  while (length > 0 && (reinterpret_cast<uintptr_t>(bytes) & 7) != 0) {
    state = _mm_crc32_u8(static_cast<uint32_t>(state), *bytes);
    bytes += 1;
    length -= 1;
  }
  state = ThreeWay(state, bytes, length, kLongBlock, longAdvance);
  state = ThreeWay(state, bytes, length, kShortBlock, shortAdvance);
  while (length >= 8) {
    state = _mm_crc32_u64(state, Load64(bytes));
    bytes += 8;
    length -= 8;
  }
  while (length > 0) {
    state = _mm_crc32_u8(static_cast<uint32_t>(state), *bytes);
    bytes += 1;
    length -= 1;
  }
  return ~static_cast<uint32_t>(state);
}

void Throw(v8::Isolate* isolate, const char* message) {
  isolate->ThrowException(v8::Exception::TypeError(v8::String::NewFromUtf8(isolate, message).ToLocalChecked()));
}

// crc32c(view, initial)
void Crc32cBinding(const v8::FunctionCallbackInfo<v8::Value>& args) {
  v8::Isolate* isolate = args.GetIsolate();
  if (args.Length() != 2 || !args[0]->IsArrayBufferView() || !args[1]->IsNumber()) {
    Throw(isolate, "crc32c(view, initial) takes an ArrayBufferView and a number");
    return;
  }
  v8::Local<v8::ArrayBufferView> view = args[0].As<v8::ArrayBufferView>();
  const uint32_t initial = args[1]->Uint32Value(isolate->GetCurrentContext()).FromMaybe(0);
  const size_t length = view->ByteLength();
  uint32_t result = initial;
  if (length > 0 && length <= kSmallView) {
    // A small typed array may keep its bytes inside the V8 heap: copy them out rather than make V8 move them to a
    // buffer of their own (which Buffer() would do).
    uint8_t copy[kSmallView];
    view->CopyContents(copy, length);
    result = Crc32c(initial, copy, length);
  } else if (length > 0) {
    const uint8_t* data = static_cast<const uint8_t*>(view->Buffer()->Data()) + view->ByteOffset();
    result = Crc32c(initial, data, length);
  }
  args.GetReturnValue().Set(result);
}

#endif

}  // namespace

NODE_MODULE_INIT(/* exports, module, context */) {
  v8::Isolate* isolate = context->GetIsolate();
#if defined(NEREUS_HW_CRC)
  if (!__builtin_cpu_supports("sse4.2")) {
    exports->Set(context, v8::String::NewFromUtf8Literal(isolate, "unsupported"), v8::String::NewFromUtf8Literal(isolate, "this CPU has no SSE4.2")).Check();
    return;
  }
  // Loaded once per thread that uses it (workers too); the tables are process-wide.
  static std::once_flag tablesBuilt;
  std::call_once(tablesBuilt, [] {
    BuildAdvanceTable(longAdvance, kLongBlock);
    BuildAdvanceTable(shortAdvance, kShortBlock);
  });
  exports->Set(context, v8::String::NewFromUtf8Literal(isolate, "crc32c"), v8::FunctionTemplate::New(isolate, Crc32cBinding)->GetFunction(context).ToLocalChecked()).Check();
#else
  exports->Set(context, v8::String::NewFromUtf8Literal(isolate, "unsupported"), v8::String::NewFromUtf8Literal(isolate, "not an x86-64 CPU")).Check();
#endif
}
