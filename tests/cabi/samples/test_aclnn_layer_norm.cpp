/* aclnnLayerNorm over the last dim with weight, bias, mean and rstd (float32); ops-nn line. */
#include <iostream>
#include <vector>
#include "acl/acl.h"
#include "aclnn_layer_norm.h"

#define CHECK_RET(cond, return_expr) \
    do {                             \
        if (!(cond)) {               \
            return_expr;             \
        }                            \
    } while (0)

#define LOG_PRINT(message, ...)         \
    do {                                \
        printf(message, ##__VA_ARGS__); \
    } while (0)

int64_t GetShapeSize(const std::vector<int64_t>& shape) {
    int64_t shapeSize = 1;
    for (auto i : shape) {
        shapeSize *= i;
    }
    return shapeSize;
}

int Init(int32_t deviceId, aclrtStream* stream) {
    auto ret = aclInit(nullptr);
    CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclInit failed. ERROR: %d\n", ret); return ret);
    ret = aclrtSetDevice(deviceId);
    CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclrtSetDevice failed. ERROR: %d\n", ret); return ret);
    ret = aclrtCreateStream(stream);
    CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclrtCreateStream failed. ERROR: %d\n", ret); return ret);
    return 0;
}

template <typename T>
int CreateAclTensor(const std::vector<T>& hostData, const std::vector<int64_t>& shape, void** deviceAddr,
                    aclDataType dataType, aclTensor** tensor) {
    auto size = GetShapeSize(shape) * sizeof(T);
    auto ret = aclrtMalloc(deviceAddr, size, ACL_MEM_MALLOC_HUGE_FIRST);
    CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclrtMalloc failed. ERROR: %d\n", ret); return ret);
    ret = aclrtMemcpy(*deviceAddr, size, hostData.data(), size, ACL_MEMCPY_HOST_TO_DEVICE);
    CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclrtMemcpy failed. ERROR: %d\n", ret); return ret);
    std::vector<int64_t> strides(shape.size(), 1);
    for (int64_t i = shape.size() - 2; i >= 0; i--) {
        strides[i] = shape[i + 1] * strides[i + 1];
    }
    *tensor = aclCreateTensor(shape.data(), shape.size(), dataType, strides.data(), 0, aclFormat::ACL_FORMAT_ND,
                              shape.data(), shape.size(), *deviceAddr);
    return 0;
}

int main() {
    int32_t deviceId = 0;
    aclrtStream stream;
    auto ret = Init(deviceId, &stream);
    CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("Init acl failed. ERROR: %d\n", ret); return ret);

    std::vector<int64_t> inputShape = {2, 4};
    std::vector<float> inputHostData = {1, 2, 3, 4, -2, 0, 2, 8};
    void* inputDeviceAddr = nullptr;
    aclTensor* input = nullptr;
    ret = CreateAclTensor(inputHostData, inputShape, &inputDeviceAddr, aclDataType::ACL_FLOAT, &input);
    CHECK_RET(ret == ACL_SUCCESS, return ret);
    std::vector<int64_t> weightShape = {4};
    std::vector<float> weightHostData = {1, 0.5, 2, -1};
    void* weightDeviceAddr = nullptr;
    aclTensor* weight = nullptr;
    ret = CreateAclTensor(weightHostData, weightShape, &weightDeviceAddr, aclDataType::ACL_FLOAT, &weight);
    CHECK_RET(ret == ACL_SUCCESS, return ret);
    std::vector<int64_t> biasShape = {4};
    std::vector<float> biasHostData = {0, 0.1, -0.2, 0.3};
    void* biasDeviceAddr = nullptr;
    aclTensor* bias = nullptr;
    ret = CreateAclTensor(biasHostData, biasShape, &biasDeviceAddr, aclDataType::ACL_FLOAT, &bias);
    CHECK_RET(ret == ACL_SUCCESS, return ret);
    std::vector<int64_t> outShape = {2, 4};
    std::vector<float> outHostData = {0, 0, 0, 0, 0, 0, 0, 0};
    void* outDeviceAddr = nullptr;
    aclTensor* out = nullptr;
    ret = CreateAclTensor(outHostData, outShape, &outDeviceAddr, aclDataType::ACL_FLOAT, &out);
    CHECK_RET(ret == ACL_SUCCESS, return ret);
    std::vector<int64_t> meanShape = {2, 1};
    std::vector<float> meanHostData = {0, 0};
    void* meanDeviceAddr = nullptr;
    aclTensor* mean = nullptr;
    ret = CreateAclTensor(meanHostData, meanShape, &meanDeviceAddr, aclDataType::ACL_FLOAT, &mean);
    CHECK_RET(ret == ACL_SUCCESS, return ret);
    std::vector<int64_t> rstdShape = {2, 1};
    std::vector<float> rstdHostData = {0, 0};
    void* rstdDeviceAddr = nullptr;
    aclTensor* rstd = nullptr;
    ret = CreateAclTensor(rstdHostData, rstdShape, &rstdDeviceAddr, aclDataType::ACL_FLOAT, &rstd);
    CHECK_RET(ret == ACL_SUCCESS, return ret);
    std::vector<int64_t> normalizedShapeData = {4};
    aclIntArray* normalizedShape = aclCreateIntArray(normalizedShapeData.data(), normalizedShapeData.size());
    CHECK_RET(normalizedShape != nullptr, return -1);

    uint64_t workspaceSize = 0;
    aclOpExecutor* executor;
    ret = aclnnLayerNormGetWorkspaceSize(input, normalizedShape, weight, bias, 1e-5, out, mean, rstd, &workspaceSize, &executor);
    CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclnnLayerNormGetWorkspaceSize failed. ERROR: %d\n", ret); return ret);
    void* workspaceAddr = nullptr;
    if (workspaceSize > 0) {
        ret = aclrtMalloc(&workspaceAddr, workspaceSize, ACL_MEM_MALLOC_HUGE_FIRST);
        CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("allocate workspace failed. ERROR: %d\n", ret); return ret);
    }
    ret = aclnnLayerNorm(workspaceAddr, workspaceSize, executor, stream);
    CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclnnLayerNorm failed. ERROR: %d\n", ret); return ret);
    ret = aclrtSynchronizeStream(stream);
    CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclrtSynchronizeStream failed. ERROR: %d\n", ret); return ret);

    auto outSize = GetShapeSize(outShape);
    std::vector<float> outResult(outSize, 0);
    ret = aclrtMemcpy(outResult.data(), outResult.size() * sizeof(outResult[0]), outDeviceAddr,
                      outSize * sizeof(outResult[0]), ACL_MEMCPY_DEVICE_TO_HOST);
    CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("copy result from device to host failed. ERROR: %d\n", ret); return ret);
    for (int64_t i = 0; i < outSize; i++) {
        LOG_PRINT("result[%ld] is: %f\n", i, outResult[i]);
    }

    auto meanSize = GetShapeSize(meanShape);
    std::vector<float> meanResult(meanSize, 0);
    ret = aclrtMemcpy(meanResult.data(), meanResult.size() * sizeof(meanResult[0]), meanDeviceAddr,
                      meanSize * sizeof(meanResult[0]), ACL_MEMCPY_DEVICE_TO_HOST);
    CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("copy mean from device to host failed. ERROR: %d\n", ret); return ret);
    for (int64_t i = 0; i < meanSize; i++) {
        LOG_PRINT("mean[%ld] is: %f\n", i, meanResult[i]);
    }

    auto rstdSize = GetShapeSize(rstdShape);
    std::vector<float> rstdResult(rstdSize, 0);
    ret = aclrtMemcpy(rstdResult.data(), rstdResult.size() * sizeof(rstdResult[0]), rstdDeviceAddr,
                      rstdSize * sizeof(rstdResult[0]), ACL_MEMCPY_DEVICE_TO_HOST);
    CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("copy rstd from device to host failed. ERROR: %d\n", ret); return ret);
    for (int64_t i = 0; i < rstdSize; i++) {
        LOG_PRINT("rstd[%ld] is: %f\n", i, rstdResult[i]);
    }

    aclDestroyTensor(input);
    aclDestroyTensor(weight);
    aclDestroyTensor(bias);
    aclDestroyTensor(out);
    aclDestroyTensor(mean);
    aclDestroyTensor(rstd);
    aclDestroyIntArray(normalizedShape);
    aclrtFree(inputDeviceAddr);
    aclrtFree(weightDeviceAddr);
    aclrtFree(biasDeviceAddr);
    aclrtFree(outDeviceAddr);
    aclrtFree(meanDeviceAddr);
    aclrtFree(rstdDeviceAddr);
    if (workspaceSize > 0) {
        aclrtFree(workspaceAddr);
    }
    aclrtDestroyStream(stream);
    aclrtResetDevice(deviceId);
    aclFinalize();
    return 0;
}
