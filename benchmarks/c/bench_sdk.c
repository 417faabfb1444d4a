/* The C side of benchmarks/test_bench_sdk.py: calls through the SDK's libraries, timed in C.
 *
 * Built with the official examples' line against an SDK tree (opbase-emu sdk --prefix P):
 *   cc bench_sdk.c -IP/include -IP/include/aclnn -LP/lib64 -lopapi -lascendcl -lnnopbase -o bench_sdk
 * and run in the SDK's environment (source P/set_env.sh):
 *   bench_sdk get_device N ROUNDS   aclrtGetDevice N times per round
 *   bench_sdk add N ROUNDS          the cached two-phase Add on 16 fp32 (+ synchronize) N times per round
 *   bench_sdk init                  aclInit + aclFinalize only (the start-up figure: whole-process time)
 * Each round prints one line, "ns/call <value>", after one untimed warm-up round; any failing
 * call prints its name and status on stderr and the program exits 1.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "acl/acl.h"
#include "aclnn/aclnn_base.h"
#include "aclnnop/aclnn_add.h"

#define CHECK(call)                                                       \
    do {                                                                  \
        int status_ = (int)(call);                                        \
        if (status_ != 0) {                                               \
            fprintf(stderr, "%s failed: %d (%s)\n", #call, status_,       \
                    aclGetRecentErrMsg() ? aclGetRecentErrMsg() : "");    \
            exit(1);                                                      \
        }                                                                 \
    } while (0)

#define ELEMENTS 16

/* CPU time of the process, as the Python side's time.process_time: on a shared machine the wall
 * clock measures the other jobs as much as the call. */
static double now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

static int32_t device_loop(long n) {
    int32_t device = -1;
    for (long i = 0; i < n; i++) {
        CHECK(aclrtGetDevice(&device));
    }
    return device;
}

static int bench_get_device(long n, int rounds) {
    CHECK(aclInit(NULL));
    CHECK(aclrtSetDevice(0));
    device_loop(n); /* warm-up */
    for (int r = 0; r < rounds; r++) {
        double start = now_ns();
        int32_t device = device_loop(n);
        double elapsed = now_ns() - start;
        if (device != 0) {
            fprintf(stderr, "aclrtGetDevice gave device %d\n", device);
            return 1;
        }
        printf("ns/call %.1f\n", elapsed / (double)n);
    }
    CHECK(aclrtResetDevice(0));
    CHECK(aclFinalize());
    return 0;
}

typedef struct {
    aclrtStream stream;
    aclTensor *x, *y, *out;
    aclScalar *alpha;
    void *buffers[3];
} AddCase;

static aclTensor *tensor(const float *host, void **dev) {
    int64_t shape[1] = {ELEMENTS};
    int64_t strides[1] = {1};
    size_t size = ELEMENTS * sizeof(float);
    CHECK(aclrtMalloc(dev, size, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK(aclrtMemcpy(*dev, size, host, size, ACL_MEMCPY_HOST_TO_DEVICE));
    return aclCreateTensor(shape, 1, ACL_FLOAT, strides, 0, ACL_FORMAT_ND, shape, 1, *dev);
}

static void two_phase(AddCase *c) {
    uint64_t workspace = 0;
    aclOpExecutor *executor = NULL;
    CHECK(aclnnAddGetWorkspaceSize(c->x, c->y, c->alpha, c->out, &workspace, &executor));
    CHECK(aclnnAdd(NULL, workspace, executor, c->stream));
    CHECK(aclrtSynchronizeStream(c->stream));
}

static int bench_add(long n, int rounds) {
    AddCase c;
    float a[ELEMENTS], b[ELEMENTS], o[ELEMENTS], result[ELEMENTS];
    float one = 1.0f;
    for (int i = 0; i < ELEMENTS; i++) {
        a[i] = (float)i;
        b[i] = 0.5f * (float)i;
        o[i] = 0.0f;
    }
    CHECK(aclInit(NULL));
    CHECK(aclrtSetDevice(0));
    CHECK(aclrtCreateStream(&c.stream));
    CHECK(aclnnInit(NULL));
    c.x = tensor(a, &c.buffers[0]);
    c.y = tensor(b, &c.buffers[1]);
    c.out = tensor(o, &c.buffers[2]);
    c.alpha = aclCreateScalar(&one, ACL_FLOAT);
    if (!c.x || !c.y || !c.out || !c.alpha) {
        fprintf(stderr, "creating the tensors failed: %s\n", aclGetRecentErrMsg());
        return 1;
    }
    for (long i = 0; i < n; i++) { /* warm-up: the first call fills the op cache */
        two_phase(&c);
    }
    for (int r = 0; r < rounds; r++) {
        double start = now_ns();
        for (long i = 0; i < n; i++) {
            two_phase(&c);
        }
        printf("ns/call %.1f\n", (now_ns() - start) / (double)n);
    }
    CHECK(aclrtMemcpy(result, sizeof result, c.buffers[2], sizeof result, ACL_MEMCPY_DEVICE_TO_HOST));
    for (int i = 0; i < ELEMENTS; i++) {
        if (result[i] != a[i] + b[i]) {
            fprintf(stderr, "result[%d] = %g, not %g\n", i, result[i], a[i] + b[i]);
            return 1;
        }
    }
    aclDestroyTensor(c.x);
    aclDestroyTensor(c.y);
    aclDestroyTensor(c.out);
    aclDestroyScalar(c.alpha);
    for (int i = 0; i < 3; i++) {
        CHECK(aclrtFree(c.buffers[i]));
    }
    CHECK(aclrtDestroyStream(c.stream));
    CHECK(aclrtResetDevice(0));
    CHECK(aclFinalize());
    return 0;
}

int main(int argc, char **argv) {
    const char *mode = argc > 1 ? argv[1] : "";
    long n = argc > 2 ? atol(argv[2]) : 1000;
    int rounds = argc > 3 ? atoi(argv[3]) : 5;
    if (strcmp(mode, "init") == 0) {
        CHECK(aclInit(NULL));
        CHECK(aclFinalize());
        return 0;
    }
    if (n <= 0 || rounds <= 0) {
        fprintf(stderr, "N and ROUNDS must be positive\n");
        return 2;
    }
    if (strcmp(mode, "get_device") == 0) {
        return bench_get_device(n, rounds);
    }
    if (strcmp(mode, "add") == 0) {
        return bench_add(n, rounds);
    }
    fprintf(stderr, "usage: %s get_device|add N ROUNDS, or %s init\n", argv[0], argv[0]);
    return 2;
}
