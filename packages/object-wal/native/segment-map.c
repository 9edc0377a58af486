// Memory maps of segment files, for @nereus/object-wal's reads on the event loop (src/segments/segment-maps.ts).
// Exports:
//   map(fd, length) -> ArrayBuffer over bytes [0, length) of the open file `fd`;
//   resident(buffer, offset, length) -> true when every page of that range of a mapped buffer is in memory.
// The mapping is MAP_PRIVATE with PROT_READ | PROT_WRITE: reads see the file's page cache, including bytes written
// to the file after the mapping was made (on Linux, for every page nobody wrote to through the mapping), and a
// stray write from JavaScript changes a private copy of its page, never the file, and never faults. It is released
// (munmap) when the ArrayBuffer is garbage collected. Touching a page that lies wholly beyond the end of the file
// raises SIGBUS, so callers only read bytes the file already holds.
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <node_api.h>

static void release_mapping(napi_env env, void* data, void* hint) {
  (void)env;
  munmap(data, (size_t)(uintptr_t)hint);
}

static napi_value throw_error(napi_env env, const char* code, const char* message) {
  napi_throw_error(env, code, message);
  return NULL;
}

static napi_value map_file(napi_env env, napi_callback_info info) {
  size_t argc = 2;
  napi_value argv[2];
  int32_t fd = -1;
  int64_t length = 0;
  if (napi_get_cb_info(env, info, &argc, argv, NULL, NULL) != napi_ok || argc != 2 ||
      napi_get_value_int32(env, argv[0], &fd) != napi_ok || napi_get_value_int64(env, argv[1], &length) != napi_ok) {
    return throw_error(env, "ERR_INVALID_ARG_TYPE", "map(fd, length) takes two numbers");
  }
  if (fd < 0 || length <= 0 || (uint64_t)length > (uint64_t)SIZE_MAX) {
    return throw_error(env, "ERR_OUT_OF_RANGE", "map(fd, length): fd must be >= 0 and length > 0");
  }
  void* address = mmap(NULL, (size_t)length, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0);
  if (address == MAP_FAILED) return throw_error(env, "ERR_MMAP", strerror(errno));
  napi_value buffer;
  if (napi_create_external_arraybuffer(env, address, (size_t)length, release_mapping, (void*)(uintptr_t)length, &buffer) != napi_ok) {
    munmap(address, (size_t)length);
    return throw_error(env, "ERR_MMAP", "could not wrap the mapping in an ArrayBuffer");
  }
  return buffer;
}

static napi_value resident(napi_env env, napi_callback_info info) {
  size_t argc = 3;
  napi_value argv[3];
  void* data = NULL;
  size_t byte_length = 0;
  int64_t offset = 0;
  int64_t length = 0;
  if (napi_get_cb_info(env, info, &argc, argv, NULL, NULL) != napi_ok || argc != 3 ||
      napi_get_arraybuffer_info(env, argv[0], &data, &byte_length) != napi_ok ||
      napi_get_value_int64(env, argv[1], &offset) != napi_ok || napi_get_value_int64(env, argv[2], &length) != napi_ok) {
    return throw_error(env, "ERR_INVALID_ARG_TYPE", "resident(buffer, offset, length) takes an ArrayBuffer and two numbers");
  }
  if (offset < 0 || length <= 0 || (uint64_t)offset + (uint64_t)length > (uint64_t)byte_length) {
    return throw_error(env, "ERR_OUT_OF_RANGE", "resident(buffer, offset, length): range outside the buffer");
  }
  const uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
  const uintptr_t start = ((uintptr_t)data + (uintptr_t)offset) & ~(page - 1);
  const uintptr_t end = (uintptr_t)data + (uintptr_t)offset + (uintptr_t)length;
  const size_t pages = (size_t)((end - start + page - 1) / page);
  unsigned char small[256];
  unsigned char* vector = pages <= sizeof small ? small : malloc(pages);
  bool all = false;
  if (vector != NULL && mincore((void*)start, end - start, (void*)vector) == 0) {
    all = true;
    for (size_t index = 0; index < pages; index += 1) {
      if ((vector[index] & 1) == 0) {
        all = false;
        break;
      }
    }
  }
  if (vector != small) free(vector);
  napi_value result;
  napi_get_boolean(env, all, &result);
  return result;
}

static napi_value init(napi_env env, napi_value exports) {
  napi_value fn;
  if (napi_create_function(env, "map", NAPI_AUTO_LENGTH, map_file, NULL, &fn) != napi_ok) return NULL;
  if (napi_set_named_property(env, exports, "map", fn) != napi_ok) return NULL;
  if (napi_create_function(env, "resident", NAPI_AUTO_LENGTH, resident, NULL, &fn) != napi_ok) return NULL;
  if (napi_set_named_property(env, exports, "resident", fn) != napi_ok) return NULL;
  return exports;
}

NAPI_MODULE(NODE_GYP_MODULE_NAME, init)
