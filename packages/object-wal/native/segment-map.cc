// Memory maps of segment files, for @nereus/object-wal's reads on the event loop (src/segments/segment-maps.ts).
// Exports:
//   map(fd, length) -> SharedArrayBuffer over bytes [0, length) of the open file `fd`;
//   resident(buffer, offset, length) -> true when every page of that range of a mapped buffer is in memory.
// A SharedArrayBuffer, not an ArrayBuffer: V8 counts an ArrayBuffer's bytes as external memory and starts a full
// garbage collection for every 64 MiB of new ones, which a mapping of a whole segment would do at every first read
// of a segment; shared memory is not counted. (Built against the running Node's own headers, at install: the V8
// API is not ABI-stable, so a Node upgrade needs a reinstall, and until then the store reads with pread.)
// The mapping is MAP_PRIVATE with PROT_READ | PROT_WRITE: reads see the file's page cache, including bytes written
// to the file after the mapping was made (on Linux, for every page nobody wrote to through the mapping), and a
// stray write from JavaScript changes a private copy of its page, never the file, and never faults. It is released
// (munmap) once V8 frees the buffer's backing store, when nothing references it. Touching a page that lies wholly
// beyond the end of the file raises SIGBUS, so callers only read bytes the file already holds.
#include <node.h>
#include <v8.h>

#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <memory>
#include <vector>

namespace {

void ReleaseMapping(void* data, size_t length, void* /* deleter_data */) { munmap(data, length); }

void Throw(v8::Isolate* isolate, const char* message, bool range) {
  v8::Local<v8::String> text = v8::String::NewFromUtf8(isolate, message).ToLocalChecked();
  isolate->ThrowException(range ? v8::Exception::RangeError(text) : v8::Exception::Error(text));
}

// map(fd, length)
void MapFile(const v8::FunctionCallbackInfo<v8::Value>& args) {
  v8::Isolate* isolate = args.GetIsolate();
  if (args.Length() != 2 || !args[0]->IsInt32() || !args[1]->IsNumber()) {
    Throw(isolate, "map(fd, length) takes two integers", false);
    return;
  }
  const int32_t fd = args[0].As<v8::Int32>()->Value();
  const double length = args[1].As<v8::Number>()->Value();
  if (fd < 0 || !(length >= 1) || length > 9007199254740991.0 || length != static_cast<double>(static_cast<uint64_t>(length))) {
    Throw(isolate, "map(fd, length): fd must be >= 0 and length a positive integer", true);
    return;
  }
  const size_t bytes = static_cast<size_t>(length);
  void* address = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0);
  if (address == MAP_FAILED) {
    Throw(isolate, strerror(errno), false);
    return;
  }
  std::unique_ptr<v8::BackingStore> store = v8::SharedArrayBuffer::NewBackingStore(address, bytes, ReleaseMapping, nullptr);
  args.GetReturnValue().Set(v8::SharedArrayBuffer::New(isolate, std::move(store)));
}

// resident(buffer, offset, length)
void Resident(const v8::FunctionCallbackInfo<v8::Value>& args) {
  v8::Isolate* isolate = args.GetIsolate();
  if (args.Length() != 3 || !args[0]->IsSharedArrayBuffer() || !args[1]->IsNumber() || !args[2]->IsNumber()) {
    Throw(isolate, "resident(buffer, offset, length) takes a SharedArrayBuffer and two integers", false);
    return;
  }
  std::shared_ptr<v8::BackingStore> store = args[0].As<v8::SharedArrayBuffer>()->GetBackingStore();
  const double offset = args[1].As<v8::Number>()->Value();
  const double length = args[2].As<v8::Number>()->Value();
  if (!(offset >= 0) || !(length >= 1) || offset + length > static_cast<double>(store->ByteLength())) {
    Throw(isolate, "resident(buffer, offset, length): range outside the buffer", true);
    return;
  }
  const uintptr_t page = static_cast<uintptr_t>(sysconf(_SC_PAGESIZE));
  const uintptr_t base = reinterpret_cast<uintptr_t>(store->Data());
  const uintptr_t start = (base + static_cast<uintptr_t>(offset)) & ~(page - 1);
  const uintptr_t end = base + static_cast<uintptr_t>(offset) + static_cast<uintptr_t>(length);
  const size_t pages = static_cast<size_t>((end - start + page - 1) / page);
  unsigned char small[256];
  std::vector<unsigned char> large;
  unsigned char* vector = small;
  if (pages > sizeof small) {
    large.resize(pages);
    vector = large.data();
  }
  bool all = mincore(reinterpret_cast<void*>(start), end - start, vector) == 0;
  for (size_t index = 0; all && index < pages; index += 1) all = (vector[index] & 1) != 0;
  args.GetReturnValue().Set(all);
}

}  // namespace

NODE_MODULE_INIT(/* exports, module, context */) {
  v8::Isolate* isolate = context->GetIsolate();
  exports->Set(context, v8::String::NewFromUtf8Literal(isolate, "map"), v8::FunctionTemplate::New(isolate, MapFile)->GetFunction(context).ToLocalChecked()).Check();
  exports->Set(context, v8::String::NewFromUtf8Literal(isolate, "resident"), v8::FunctionTemplate::New(isolate, Resident)->GetFunction(context).ToLocalChecked()).Check();
}
