/* What llama.cpp's CANN backend asks of the runtime, from C++: a VMM pool (reserve one big range, map
 * physical chunks as it grows), two devices with peer access and an event hand-over, a captured and
 * replayed stream. Prints "name[i] is: value" lines and one "status <call> <code>" line per refusal. */
#include <cstdio>
#include <cstring>
#include <vector>
#include "acl/acl.h"
#include "aclnnop/aclnn_add.h"

#define CHECK(expr)                                                            \
    do {                                                                       \
        aclError e_ = (expr);                                                  \
        if (e_ != ACL_SUCCESS) {                                               \
            printf("failed %s %d: %s\n", #expr, e_, aclGetRecentErrMsg());     \
            return 1;                                                          \
        }                                                                      \
    } while (0)

static aclTensor *Tensor(void *ptr, int64_t n) {
    int64_t shape[1] = {n}, strides[1] = {1};
    return aclCreateTensor(shape, 1, ACL_FLOAT, strides, 0, ACL_FORMAT_ND, shape, 1, ptr);
}

static int Add(void *x, void *y, void *out, int64_t n, float alphaValue, aclrtStream stream) {
    aclTensor *tx = Tensor(x, n), *ty = Tensor(y, n), *tout = Tensor(out, n);
    aclScalar *alpha = aclCreateScalar(&alphaValue, ACL_FLOAT);
    uint64_t ws = 0;
    aclOpExecutor *executor = nullptr;
    CHECK(aclnnAddGetWorkspaceSize(tx, ty, alpha, tout, &ws, &executor));
    CHECK(aclnnAdd(nullptr, 0, executor, stream));
    aclDestroyTensor(tx);
    aclDestroyTensor(ty);
    aclDestroyTensor(tout);
    aclDestroyScalar(alpha);
    return 0;
}

static void Print(const char *name, const float *values, int count) {
    for (int i = 0; i < count; i++) {
        printf("%s[%d] is: %f\n", name, i, values[i]);
    }
}

static int VmmPool() {
    aclrtPhysicalMemProp prop = {};
    prop.handleType = ACL_MEM_HANDLE_TYPE_NONE;
    prop.allocationType = ACL_MEM_ALLOCATION_TYPE_PINNED;
    prop.memAttr = ACL_HBM_MEM_HUGE;
    prop.location.type = ACL_MEM_LOCATION_TYPE_DEVICE;
    prop.location.id = 0;
    size_t granularity = 0;
    CHECK(aclrtMemGetAllocationGranularity(&prop, ACL_RT_MEM_ALLOC_GRANULARITY_RECOMMENDED, &granularity));
    printf("granularity %zu\n", granularity);
    size_t freeBefore = 0, total = 0;
    CHECK(aclrtGetMemInfo(ACL_HBM_MEM, &freeBefore, &total));
    void *pool = nullptr;
    CHECK(aclrtReserveMemAddress(&pool, total, 0, nullptr, 1));
    std::vector<aclrtDrvMemHandle> handles(2);
    for (size_t i = 0; i < handles.size(); i++) {
        CHECK(aclrtMallocPhysical(&handles[i], granularity, &prop, 0));
        CHECK(aclrtMapMem(static_cast<char *>(pool) + i * granularity, granularity, 0, handles[i], 0));
    }
    size_t freeNow = 0;
    CHECK(aclrtGetMemInfo(ACL_HBM_MEM, &freeNow, &total));
    printf("pool charged %zu\n", freeBefore - freeNow);
    printf("status aclrtMapMem-overlap %d\n", aclrtMapMem(pool, granularity, 0, handles[1], 0));
    printf("status aclrtReleaseMemAddress-mapped %d\n", aclrtReleaseMemAddress(pool));

    const int64_t n = 8;  // x straddles the two chunks, y and out are in the second
    char *base = static_cast<char *>(pool) + granularity - 16;
    void *x = base, *y = base + 64, *out = base + 128;
    float hx[n] = {1, 2, 3, 4, 5, 6, 7, 8}, hy[n] = {0.5, 0.5, 1, 1, 2, 2, 4, 4}, hout[n] = {};
    aclrtStream stream = nullptr;
    CHECK(aclrtCreateStream(&stream));
    CHECK(aclrtMemcpy(x, sizeof(hx), hx, sizeof(hx), ACL_MEMCPY_HOST_TO_DEVICE));
    CHECK(aclrtMemcpy(y, sizeof(hy), hy, sizeof(hy), ACL_MEMCPY_HOST_TO_DEVICE));
    if (Add(x, y, out, n, 2.0f, stream) != 0) return 1;
    CHECK(aclrtSynchronizeStream(stream));
    CHECK(aclrtMemcpy(hout, sizeof(hout), out, sizeof(hout), ACL_MEMCPY_DEVICE_TO_HOST));
    Print("vmm", hout, n);
    CHECK(aclrtDestroyStream(stream));
    for (size_t i = 0; i < handles.size(); i++) {
        CHECK(aclrtUnmapMem(static_cast<char *>(pool) + i * granularity));
        CHECK(aclrtFreePhysical(handles[i]));
    }
    CHECK(aclrtReleaseMemAddress(pool));
    return 0;
}

static int PeerCopy() {
    const int64_t n = 4;
    float host[n] = {1, 2, 3, 4}, back[n] = {};
    int32_t can = -1;
    CHECK(aclrtDeviceCanAccessPeer(&can, 0, 1));
    printf("can access peer %d\n", can);
    void *src = nullptr, *dst = nullptr;
    CHECK(aclrtSetDevice(1));
    CHECK(aclrtMalloc(&dst, sizeof(host), ACL_MEM_MALLOC_HUGE_FIRST));
    aclrtStream s1 = nullptr;
    CHECK(aclrtCreateStream(&s1));
    CHECK(aclrtSetDevice(0));
    CHECK(aclrtMalloc(&src, sizeof(host), ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK(aclrtMemcpy(src, sizeof(host), host, sizeof(host), ACL_MEMCPY_HOST_TO_DEVICE));
    printf("status aclrtMemcpy-no-peer %d\n", aclrtMemcpy(dst, sizeof(host), src, sizeof(host),
                                                          ACL_MEMCPY_DEVICE_TO_DEVICE));
    CHECK(aclrtDeviceEnablePeerAccess(1, 0));
    aclrtStream s0 = nullptr;
    CHECK(aclrtCreateStream(&s0));
    CHECK(aclrtMemcpyAsync(dst, sizeof(host), src, sizeof(host), ACL_MEMCPY_DEVICE_TO_DEVICE, s0));
    aclrtEvent event = nullptr;
    CHECK(aclrtCreateEvent(&event));
    CHECK(aclrtRecordEvent(event, s0));
    CHECK(aclrtSetDevice(1));
    CHECK(aclrtStreamWaitEvent(s1, event));
    if (Add(dst, dst, dst, n, 1.0f, s1) != 0) return 1;  // dst = 2 * dst on device 1
    CHECK(aclrtSynchronizeStream(s1));
    CHECK(aclrtMemcpy(back, sizeof(back), dst, sizeof(back), ACL_MEMCPY_DEVICE_TO_HOST));
    Print("peer", back, n);
    CHECK(aclrtFree(dst));
    CHECK(aclrtDestroyStream(s1));
    CHECK(aclrtResetDeviceForce(1));  // set twice above
    CHECK(aclrtSetDevice(0));
    CHECK(aclrtDestroyEvent(event));
    CHECK(aclrtDestroyStream(s0));
    CHECK(aclrtFree(src));
    return 0;
}

static int Capture() {
    const int64_t n = 4;
    void *x = nullptr, *y = nullptr;
    float *hostX = nullptr;
    CHECK(aclrtMalloc(&x, n * 4, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK(aclrtMalloc(&y, n * 4, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK(aclrtMallocHost(reinterpret_cast<void **>(&hostX), n * 4));
    for (int i = 0; i < n; i++) hostX[i] = 1.0f;
    CHECK(aclrtMemcpy(y, n * 4, hostX, n * 4, ACL_MEMCPY_HOST_TO_DEVICE));
    for (int i = 0; i < n; i++) hostX[i] = 0.0f;
    aclrtStream stream = nullptr;
    CHECK(aclrtCreateStream(&stream));
    aclmdlRI model = nullptr;
    CHECK(aclmdlRICaptureBegin(stream, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
    printf("status aclrtMemcpy-global-capture %d\n", aclrtMemcpy(y, n * 4, hostX, n * 4, ACL_MEMCPY_HOST_TO_DEVICE));
    CHECK(aclmdlRICaptureEnd(stream, &model) == ACL_ERROR_RT_STREAM_CAPTURE_INVALIDATED ? 0 : 1);
    CHECK(aclmdlRICaptureBegin(stream, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
    aclmdlRICaptureStatus status = ACL_MODEL_RI_CAPTURE_STATUS_NONE;
    aclmdlRI during = nullptr;
    CHECK(aclmdlRICaptureGetInfo(stream, &status, &during));
    printf("capture status %d\n", static_cast<int>(status));
    aclmdlRICaptureMode mode = ACL_MODEL_RI_CAPTURE_MODE_RELAXED;  // the runtime guide's swap around a sync copy
    CHECK(aclmdlRICaptureThreadExchangeMode(&mode));
    printf("exchanged %d\n", static_cast<int>(mode));
    for (int i = 0; i < n; i++) hostX[i] = 1.0f;
    CHECK(aclrtMemcpy(y, n * 4, hostX, n * 4, ACL_MEMCPY_HOST_TO_DEVICE));  // runs now, once
    for (int i = 0; i < n; i++) hostX[i] = 0.0f;
    CHECK(aclmdlRICaptureThreadExchangeMode(&mode));
    CHECK(aclrtMemcpyAsync(x, n * 4, hostX, n * 4, ACL_MEMCPY_HOST_TO_DEVICE, stream));
    if (Add(x, y, x, n, 1.0f, stream) != 0) return 1;  // x += y
    CHECK(aclrtMemcpyAsync(hostX, n * 4, x, n * 4, ACL_MEMCPY_DEVICE_TO_HOST, stream));
    printf("status aclrtSynchronizeStream-capturing %d\n", aclrtSynchronizeStream(stream));
    CHECK(aclmdlRICaptureEnd(stream, &model));
    printf("same model %d\n", model == during ? 1 : 0);
    float seen[3] = {};
    for (int i = 0; i < 3; i++) {
        CHECK(aclmdlRIExecuteAsync(model, stream));
        CHECK(aclrtSynchronizeStream(stream));
        seen[i] = hostX[0];
    }
    Print("replay", seen, 3);
    CHECK(aclmdlRIDestroy(model));
    printf("status aclmdlRIDestroy-again %d\n", aclmdlRIDestroy(model));
    CHECK(aclrtDestroyStream(stream));
    CHECK(aclrtFreeHost(hostX));
    CHECK(aclrtFree(x));
    CHECK(aclrtFree(y));
    return 0;
}

int main() {
    CHECK(aclInit(nullptr));
    CHECK(aclrtSetDevice(0));
    printf("soc %s\n", aclrtGetSocName());
    if (VmmPool() != 0 || PeerCopy() != 0 || Capture() != 0) return 1;
    CHECK(aclrtResetDeviceForce(0));  // set three times: by main and twice by PeerCopy
    CHECK(aclFinalize());
    return 0;
}
