/* The runtime and the op API found at run time, as torch_npu finds them: dlopen() of libascendcl.so
 * and libopapi.so by name (LD_LIBRARY_PATH), every function by dlsym(), then a two-phase aclnnAdd.
 * The program links none of the SDK's libraries. */
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include "acl/acl.h"
#include "aclnnop/aclnn_add.h"

#define LOOKUP(lib, name)                                                  \
    typeof(&name) p_##name = (typeof(&name))dlsym(lib, #name);             \
    if (p_##name == NULL) {                                                \
        printf("missing %s: %s\n", #name, dlerror());                      \
        return 1;                                                          \
    }

int main(void) {
    void *ascendcl = dlopen("libascendcl.so", RTLD_LAZY | RTLD_GLOBAL);
    void *nnopbase = dlopen("libnnopbase.so", RTLD_LAZY | RTLD_GLOBAL);
    void *opapi = dlopen("libopapi.so", RTLD_LAZY);
    if (ascendcl == NULL || nnopbase == NULL || opapi == NULL) {
        printf("dlopen failed: %s\n", dlerror());
        return 1;
    }
    LOOKUP(ascendcl, aclInit)
    LOOKUP(ascendcl, aclFinalize)
    LOOKUP(ascendcl, aclrtSetDevice)
    LOOKUP(ascendcl, aclrtResetDevice)
    LOOKUP(ascendcl, aclrtCreateStream)
    LOOKUP(ascendcl, aclrtDestroyStream)
    LOOKUP(ascendcl, aclrtSynchronizeStream)
    LOOKUP(ascendcl, aclrtMalloc)
    LOOKUP(ascendcl, aclrtFree)
    LOOKUP(ascendcl, aclrtMemcpy)
    LOOKUP(nnopbase, aclCreateTensor)
    LOOKUP(nnopbase, aclCreateScalar)
    LOOKUP(nnopbase, aclDestroyTensor)
    LOOKUP(nnopbase, aclDestroyScalar)
    LOOKUP(opapi, aclnnAddGetWorkspaceSize)
    LOOKUP(opapi, aclnnAdd)
    /* an op this library does not have: dlsym says so (torch_npu falls back on a NULL here) */
    printf("aclnnNoSuchOpGetWorkspaceSize %s\n", dlsym(opapi, "aclnnNoSuchOpGetWorkspaceSize") ? "found" : "absent");

    int ok = p_aclInit(NULL) == ACL_SUCCESS && p_aclrtSetDevice(0) == ACL_SUCCESS;
    aclrtStream stream = NULL;
    ok = ok && p_aclrtCreateStream(&stream) == ACL_SUCCESS;
    float self[6] = {1, 2, 3, 4, 5, 6}, other[6] = {0.5f, 0.5f, 1, 1, 2, 2}, out[6] = {0};
    void *selfDev = NULL, *otherDev = NULL, *outDev = NULL;
    ok = ok && p_aclrtMalloc(&selfDev, sizeof(self), ACL_MEM_MALLOC_HUGE_FIRST) == ACL_SUCCESS;
    ok = ok && p_aclrtMalloc(&otherDev, sizeof(other), ACL_MEM_MALLOC_HUGE_FIRST) == ACL_SUCCESS;
    ok = ok && p_aclrtMalloc(&outDev, sizeof(out), ACL_MEM_MALLOC_HUGE_FIRST) == ACL_SUCCESS;
    ok = ok && p_aclrtMemcpy(selfDev, sizeof(self), self, sizeof(self), ACL_MEMCPY_HOST_TO_DEVICE) == ACL_SUCCESS;
    ok = ok && p_aclrtMemcpy(otherDev, sizeof(other), other, sizeof(other), ACL_MEMCPY_HOST_TO_DEVICE) == ACL_SUCCESS;
    if (!ok) {
        printf("setup failed\n");
        return 1;
    }
    int64_t shape[2] = {2, 3}, strides[2] = {3, 1};
    aclTensor *s = p_aclCreateTensor(shape, 2, ACL_FLOAT, strides, 0, ACL_FORMAT_ND, shape, 2, selfDev);
    aclTensor *o = p_aclCreateTensor(shape, 2, ACL_FLOAT, strides, 0, ACL_FORMAT_ND, shape, 2, otherDev);
    aclTensor *y = p_aclCreateTensor(shape, 2, ACL_FLOAT, strides, 0, ACL_FORMAT_ND, shape, 2, outDev);
    float alphaValue = 3.0f;
    aclScalar *alpha = p_aclCreateScalar(&alphaValue, ACL_FLOAT);
    uint64_t workspaceSize = 0;
    aclOpExecutor *executor = NULL;
    int ret = p_aclnnAddGetWorkspaceSize(s, o, alpha, y, &workspaceSize, &executor);
    printf("aclnnAddGetWorkspaceSize %d\n", ret);
    void *workspace = NULL;
    if (workspaceSize > 0) {
        p_aclrtMalloc(&workspace, workspaceSize, ACL_MEM_MALLOC_HUGE_FIRST);
    }
    printf("aclnnAdd %d\n", p_aclnnAdd(workspace, workspaceSize, executor, stream));
    printf("aclrtSynchronizeStream %d\n", p_aclrtSynchronizeStream(stream));
    p_aclrtMemcpy(out, sizeof(out), outDev, sizeof(out), ACL_MEMCPY_DEVICE_TO_HOST);
    for (int i = 0; i < 6; i++) {
        printf("result[%d] is: %f\n", i, out[i]);
    }
    p_aclDestroyTensor(s);
    p_aclDestroyTensor(o);
    p_aclDestroyTensor(y);
    p_aclDestroyScalar(alpha);
    if (workspace != NULL) {
        p_aclrtFree(workspace);
    }
    p_aclrtFree(selfDev);
    p_aclrtFree(otherDev);
    p_aclrtFree(outDev);
    p_aclrtDestroyStream(stream);
    p_aclrtResetDevice(0);
    return p_aclFinalize() == ACL_SUCCESS ? 0 : 2;
}
