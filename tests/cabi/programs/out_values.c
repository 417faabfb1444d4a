/* Every kind of out-value the bridge writes through a C pointer: new int64 arrays with their count
 * (the caller frees them), numbers, enums, addresses, handles, floats, sizes, and a returned string. */
#include <stdio.h>
#include <stdlib.h>
#include "acl/acl.h"
#include "aclnn/aclnn_base.h"

static void print_array(const char *name, int status, int64_t *values, uint64_t count) {
    printf("%s %d", name, status);
    for (uint64_t i = 0; i < count; i++) {
        printf(" %ld", (long)values[i]);
    }
    printf("\n");
    free(values); /* a new array the caller owns */
}

int main(void) {
    int status;
    aclInit(NULL);
    aclrtSetDevice(0);
    void *dev = NULL;
    aclrtMalloc(&dev, 96, ACL_MEM_MALLOC_HUGE_FIRST);
    int64_t shape[3] = {2, 3, 4}, strides[3] = {1, 2, 6}, storage[1] = {24};
    aclTensor *t = aclCreateTensor(shape, 3, ACL_FLOAT16, strides, 5, ACL_FORMAT_NCHW, storage, 1, dev);
    int64_t *dims = NULL;
    uint64_t n = 0;
    status = aclGetViewShape(t, &dims, &n);
    print_array("view", status, dims, n);
    status = aclGetViewStrides(t, &dims, &n);
    print_array("strides", status, dims, n);
    status = aclGetStorageShape(t, &dims, &n);
    print_array("storage", status, dims, n);
    int64_t offset = -1;
    aclDataType dtype = ACL_DT_UNDEFINED;
    aclFormat format = ACL_FORMAT_UNDEFINED;
    void *addr = NULL;
    status = aclGetViewOffset(t, &offset);
    printf("offset %d %ld\n", status, (long)offset);
    status = aclGetDataType(t, &dtype);
    printf("dtype %d %d\n", status, (int)dtype);
    status = aclGetFormat(t, &format);
    printf("format %d %d\n", status, (int)format);
    status = aclGetRawTensorAddr(t, &addr);
    printf("addr %d %d\n", status, addr == dev);

    uint64_t size = 0;
    bool bools[3] = {true, false, true};
    aclBoolArray *boolArray = aclCreateBoolArray(bools, 3);
    status = aclGetBoolArraySize(boolArray, &size);
    printf("bools %d %lu\n", status, (unsigned long)size);
    float floats[2] = {1.5f, 2.5f};
    aclFloatArray *floatArray = aclCreateFloatArray(floats, 2);
    status = aclGetFloatArraySize(floatArray, &size);
    printf("floats %d %lu\n", status, (unsigned long)size);
    aclTensor *tensors[2] = {t, aclCreateTensor(shape, 3, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, shape, 3, dev)};
    aclTensorList *tensorList = aclCreateTensorList((const aclTensor *const *)tensors, 2);
    status = aclGetTensorListSize(tensorList, &size);
    printf("tensors %d %lu\n", status, (unsigned long)size);
    int64_t value = -7;
    aclScalar *scalars[1] = {aclCreateScalar(&value, ACL_INT64)};
    aclScalarList *scalarList = aclCreateScalarList((const aclScalar *const *)scalars, 1);
    status = aclGetScalarListSize(scalarList, &size);
    printf("scalars %d %lu\n", status, (unsigned long)size);

    int32_t major = -1, minor = -1, patch = -1;
    status = aclrtGetVersion(&major, &minor, &patch);
    printf("version %d %d.%d.%d\n", status, major, minor, patch);
    printf("soc %s\n", aclrtGetSocName());
    size_t freeBytes = 0, totalBytes = 0;
    status = aclrtGetMemInfo(ACL_HBM_MEM, &freeBytes, &totalBytes);
    printf("memory %d %d\n", status, freeBytes > 0 && totalBytes >= freeBytes);
    aclrtStream stream = NULL;
    aclrtEvent start = NULL, end = NULL;
    aclrtCreateStream(&stream);
    aclrtCreateEvent(&start);
    aclrtCreateEvent(&end);
    aclrtRecordEvent(start, stream);
    aclrtRecordEvent(end, stream);
    aclrtSynchronizeEvent(end);
    float ms = -1.0f;
    status = aclrtEventElapsedTime(&ms, start, end);
    printf("elapsed %d %d\n", status, ms >= 0.0f);
    uint32_t count = 0;
    status = aclrtGetDeviceCount(&count);
    printf("devices %d %u\n", status, count);

    aclrtDestroyEvent(start);
    aclrtDestroyEvent(end);
    aclrtDestroyStream(stream);
    aclDestroyTensorList(tensorList);
    aclDestroyScalarList(scalarList);
    aclDestroyBoolArray(boolArray);
    aclDestroyFloatArray(floatArray);
    aclrtFree(dev);
    aclrtResetDevice(0);
    return aclFinalize() == ACL_SUCCESS ? 0 : 2;
}
