/* A full lifecycle written as a careful C program: every call's status is checked, and on the
 * first failure the program undoes what it had made, in reverse, and still exits 0.
 *
 * It names each failable call on stdout before making it ("call NAME"), so a clean run lists the
 * fault points; a failed call prints "failed NAME STATUS" (or "failed NAME nullptr"). With
 * OPBASE_EMU_LEAK_CHECK=1, exit 0 then means the leak check found nothing alive (23 otherwise). */
#include <stdio.h>
#include <string.h>
#include "acl/acl.h"
#include "aclnn/acl_meta.h"
#include "aclnnop/aclnn_add.h"

#define N 8
static int ok = 1; /* no failure yet: later steps run only while this holds */

static void say(const char *name) {
    printf("call %s\n", name);
    fflush(stdout);
}

static int check(const char *name, aclError ret) {
    if (ret != ACL_SUCCESS) {
        printf("failed %s %d\n", name, (int)ret);
        fflush(stdout);
        ok = 0;
    }
    return ret == ACL_SUCCESS;
}

static void *made(const char *name, void *handle) {
    if (handle == NULL) {
        printf("failed %s nullptr\n", name);
        fflush(stdout);
        ok = 0;
    }
    return handle;
}

#define STEP(name, call) (ok && (say(name), check(name, (call))))
#define MAKE(name, call) (ok ? (say(name), made(name, (call))) : NULL)
#define UNDO(name, call) (say(name), check(name, (call))) /* cleanup runs whatever failed before */

int main(void) {
    void *x = NULL, *y = NULL, *out = NULL, *ws = NULL, *host = NULL;
    aclrtStream stream = NULL;
    aclrtEvent event = NULL;
    aclTensor *tx = NULL, *ty = NULL, *tout = NULL;
    aclScalar *alpha = NULL;
    aclOpExecutor *executor = NULL;
    uint64_t ws_size = 0;
    float one = 1.0f, a[N], b[N], r[N];
    int64_t dims[1] = {N};
    int inited = 0, device = 0, failed_result = 0;
    for (int i = 0; i < N; ++i) {
        a[i] = (float)i;
        b[i] = 0.5f;
    }
    inited = STEP("aclInit", aclInit(NULL));
    device = STEP("aclrtSetDevice", aclrtSetDevice(0));
    STEP("aclrtCreateStream", aclrtCreateStream(&stream));
    STEP("aclrtMalloc", aclrtMalloc(&x, sizeof a, ACL_MEM_MALLOC_HUGE_FIRST));
    STEP("aclrtMalloc", aclrtMalloc(&y, sizeof b, ACL_MEM_MALLOC_HUGE_FIRST));
    STEP("aclrtMalloc", aclrtMalloc(&out, sizeof r, ACL_MEM_MALLOC_HUGE_FIRST));
    STEP("aclrtMallocHost", aclrtMallocHost(&host, sizeof r));
    STEP("aclrtMemcpy", aclrtMemcpy(x, sizeof a, a, sizeof a, ACL_MEMCPY_HOST_TO_DEVICE));
    STEP("aclrtMemcpy", aclrtMemcpy(y, sizeof b, b, sizeof b, ACL_MEMCPY_HOST_TO_DEVICE));
    tx = MAKE("aclCreateTensor", aclCreateTensor(dims, 1, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, dims, 1, x));
    ty = MAKE("aclCreateTensor", aclCreateTensor(dims, 1, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, dims, 1, y));
    tout = MAKE("aclCreateTensor", aclCreateTensor(dims, 1, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, dims, 1, out));
    alpha = MAKE("aclCreateScalar", aclCreateScalar(&one, ACL_FLOAT));
    STEP("aclnnAddGetWorkspaceSize", aclnnAddGetWorkspaceSize(tx, ty, alpha, tout, &ws_size, &executor));
    /* repeatable: then the program owns the executor and destroys it, whatever phase 2 did */
    STEP("aclSetAclOpExecutorRepeatable", aclSetAclOpExecutorRepeatable(executor));
    if (ws_size > 0) {
        STEP("aclrtMalloc", aclrtMalloc(&ws, ws_size, ACL_MEM_MALLOC_HUGE_FIRST));
    }
    STEP("aclnnAdd", aclnnAdd(ws, ws_size, executor, stream));
    STEP("aclrtCreateEvent", aclrtCreateEvent(&event));
    STEP("aclrtRecordEvent", aclrtRecordEvent(event, stream));
    STEP("aclrtSynchronizeEvent", aclrtSynchronizeEvent(event));
    STEP("aclrtSynchronizeStream", aclrtSynchronizeStream(stream));
    STEP("aclrtMemcpy", aclrtMemcpy(host, sizeof r, out, sizeof r, ACL_MEMCPY_DEVICE_TO_HOST));
    if (ok) {
        memcpy(r, host, sizeof r);
        for (int i = 0; i < N; ++i) {
            failed_result |= r[i] != a[i] + b[i];
        }
        printf("%s\n", failed_result ? "wrong result" : "ok");
    }
    /* cleanup: the stream's queued work ends first, then only what exists is released, in reverse */
    if (stream) UNDO("aclrtSynchronizeStream", aclrtSynchronizeStream(stream));
    if (event) UNDO("aclrtDestroyEvent", aclrtDestroyEvent(event));
    if (executor) UNDO("aclDestroyAclOpExecutor", aclDestroyAclOpExecutor(executor));
    if (alpha) UNDO("aclDestroyScalar", aclDestroyScalar(alpha));
    if (tout) UNDO("aclDestroyTensor", aclDestroyTensor(tout));
    if (ty) UNDO("aclDestroyTensor", aclDestroyTensor(ty));
    if (tx) UNDO("aclDestroyTensor", aclDestroyTensor(tx));
    if (ws) UNDO("aclrtFree", aclrtFree(ws));
    if (host) UNDO("aclrtFreeHost", aclrtFreeHost(host));
    if (out) UNDO("aclrtFree", aclrtFree(out));
    if (y) UNDO("aclrtFree", aclrtFree(y));
    if (x) UNDO("aclrtFree", aclrtFree(x));
    if (stream) UNDO("aclrtDestroyStream", aclrtDestroyStream(stream));
    if (device) UNDO("aclrtResetDevice", aclrtResetDevice(0));
    if (inited) UNDO("aclFinalize", aclFinalize());
    return failed_result;
}
