#include <iostream>
#include <vector>
#include "acl/acl.h"
#include "aclnnop/aclnn_add.h"

#define CHECK_RET(cond, msg) do { if (!(cond)) { msg; return -1; } } while (0)

int64_t ShapeSize(const std::vector<int64_t>& shape) { int64_t n = 1; for (auto d : shape) n *= d; return n; }

template <typename T>
int CreateTensor(const std::vector<T>& host, const std::vector<int64_t>& shape, void** dev, aclDataType dt, aclTensor** t) {
    auto size = ShapeSize(shape) * sizeof(T);
    auto ret = aclrtMalloc(dev, size, ACL_MEM_MALLOC_HUGE_FIRST);
    CHECK_RET(ret == ACL_SUCCESS, std::cerr << "malloc " << ret << std::endl);
    ret = aclrtMemcpy(*dev, size, host.data(), size, ACL_MEMCPY_HOST_TO_DEVICE);
    CHECK_RET(ret == ACL_SUCCESS, std::cerr << "memcpy " << ret << std::endl);
    std::vector<int64_t> strides(shape.size(), 1);
    for (int64_t i = shape.size() - 2; i >= 0; i--) strides[i] = shape[i + 1] * strides[i + 1];
    *t = aclCreateTensor(shape.data(), shape.size(), dt, strides.data(), 0, ACL_FORMAT_ND, shape.data(), shape.size(), *dev);
    return 0;
}

int main() {
    int32_t deviceId = 0;
    aclrtStream stream;
    CHECK_RET(aclInit(nullptr) == ACL_SUCCESS, std::cerr << "aclInit" << std::endl);
    CHECK_RET(aclrtSetDevice(deviceId) == ACL_SUCCESS, std::cerr << "set device" << std::endl);
    CHECK_RET(aclrtCreateStream(&stream) == ACL_SUCCESS, std::cerr << "stream" << std::endl);
    std::vector<int64_t> shape = {4, 2};
    void *selfDev = nullptr, *otherDev = nullptr, *outDev = nullptr;
    aclTensor *self = nullptr, *other = nullptr, *out = nullptr;
    std::vector<float> selfHost = {0, 1, 2, 3, 4, 5, 6, 7}, otherHost = {1, 1, 1, 2, 2, 2, 3, 3}, outHost(8, 0);
    CreateTensor(selfHost, shape, &selfDev, ACL_FLOAT, &self);
    CreateTensor(otherHost, shape, &otherDev, ACL_FLOAT, &other);
    CreateTensor(outHost, shape, &outDev, ACL_FLOAT, &out);
    float alphaValue = 1.2f;
    aclScalar* alpha = aclCreateScalar(&alphaValue, ACL_FLOAT);
    uint64_t workspaceSize = 0;
    aclOpExecutor* executor;
    auto ret = aclnnAddGetWorkspaceSize(self, other, alpha, out, &workspaceSize, &executor);
    CHECK_RET(ret == ACL_SUCCESS, std::cerr << "GetWorkspaceSize " << ret << " " << aclGetRecentErrMsg() << std::endl);
    void* workspaceAddr = nullptr;
    if (workspaceSize > 0) { aclrtMalloc(&workspaceAddr, workspaceSize, ACL_MEM_MALLOC_HUGE_FIRST); }
    ret = aclnnAdd(workspaceAddr, workspaceSize, executor, stream);
    CHECK_RET(ret == ACL_SUCCESS, std::cerr << "aclnnAdd " << ret << std::endl);
    CHECK_RET(aclrtSynchronizeStream(stream) == ACL_SUCCESS, std::cerr << "sync" << std::endl);
    std::vector<float> result(8, 0);
    aclrtMemcpy(result.data(), 32, outDev, 32, ACL_MEMCPY_DEVICE_TO_HOST);
    for (int i = 0; i < 8; i++) std::cout << "result[" << i << "] is: " << result[i] << std::endl;
    aclDestroyTensor(self); aclDestroyTensor(other); aclDestroyTensor(out); aclDestroyScalar(alpha);
    aclrtFree(selfDev); aclrtFree(otherDev); aclrtFree(outDev); if (workspaceSize > 0) aclrtFree(workspaceAddr);
    aclrtDestroyStream(stream); aclrtResetDevice(deviceId); aclFinalize();
    return 0;
}
