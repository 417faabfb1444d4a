/* The hand-written core of the SDK's libraries: start the embedded interpreter once, enter and
 * leave it from any thread, and call the Python bridge. Every per-function line is generated
 * (forwarders.c); this file is all that is written by hand.
 *
 * Rules it keeps:
 * - one emulated process per OS process: a C program starts the interpreter on its first call;
 *   a Python process that loaded the library (ctypes) is already running one and is reused;
 * - nothing crosses the boundary as an exception or a crash: if the interpreter or the emulator
 *   cannot start, every call returns its failure status and one line on stderr says why;
 * - at exit a program that started the interpreter runs the emulator's exit work (leak check,
 *   trace flush) through the bridge.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

/* The start runs once for good: ready, or failed for a reason a retry would meet again. A Ctrl-C
 * that interrupts the import is not such a reason, so an interrupted start is made again by the
 * next call (opbase_emu_started stays 0). */
static pthread_mutex_t opbase_emu_start_lock = PTHREAD_MUTEX_INITIALIZER;
static int opbase_emu_started = 0;
static PyObject *opbase_emu_bridge_entry = NULL; /* emulator.sdk.bridge.entry */
static PyObject *opbase_emu_bridge_exit = NULL; /* emulator.sdk.bridge.at_exit */
static int opbase_emu_ready = 0;
static int opbase_emu_owner = 0; /* this library started the interpreter */

/* The C caller of the call this thread is running (a forwarder's return address): the site of
 * whatever the call creates or misuses. Kept in C so that a call pays one store for it; the bridge
 * reads it (opbase_emu_current_caller) only when a site is captured. */
static __thread void *opbase_emu_caller = NULL;

void *opbase_emu_set_caller(void *caller) {
    void *outer = opbase_emu_caller;
    opbase_emu_caller = caller;
    return outer;
}

static uintptr_t opbase_emu_current_caller(void) { return (uintptr_t)opbase_emu_caller; }

static void opbase_emu_fail(const char *why) {
    fprintf(stderr, "opbase-emu: the emulator cannot start (%s); every call returns its failure status\n", why);
}

/* Registered with glibc's on_exit rather than atexit: the exit work needs the program's own exit
 * status, so that a failing program keeps its code when the leak check runs. */
static void opbase_emu_at_exit(int status, void *unused) {
    (void)unused;
    if (!opbase_emu_ready || opbase_emu_bridge_exit == NULL) {
        return;
    }
    PyGILState_STATE gil = PyGILState_Ensure();
    PyObject *result = PyObject_CallFunction(opbase_emu_bridge_exit, "i", status);
    if (result == NULL) {
        PyErr_Print();
    }
    Py_XDECREF(result);
    fflush(stdout);
    fflush(stderr);
    PyGILState_Release(gil);
}

/* A KeyboardInterrupt raised by the import (a Ctrl-C while the modules load): cleared, -1 returned. */
static int opbase_emu_interrupted(void) {
    if (!PyErr_ExceptionMatches(PyExc_KeyboardInterrupt)) {
        return 0;
    }
    PyErr_Clear();
    return 1;
}

/* 1: the bridge is in; 0: it cannot be (the traceback is printed); -1: a Ctrl-C interrupted it. */
static int opbase_emu_import(void) {
    /* The embedding program's site directories (set_env.sh / opbase-emu run export them). */
    const char *code =
        "import os, site, sys\n"
        "for p in filter(None, os.environ.get('OPBASE_EMU_PYTHONPATH', '').split(os.pathsep)):\n"
        "    site.addsitedir(p) if p.endswith('-packages') else sys.path.append(p)\n";
    if (PyRun_SimpleString(code) != 0) {
        return 0;
    }
    PyObject *module = PyImport_ImportModule("emulator.sdk.bridge");
    if (module == NULL) {
        if (opbase_emu_interrupted()) {
            return -1;
        }
        PyErr_Print();
        return 0;
    }
    opbase_emu_bridge_entry = PyObject_GetAttrString(module, "entry");
    opbase_emu_bridge_exit = PyObject_GetAttrString(module, "at_exit");
    PyObject *installed = PyObject_CallMethod(module, "install", "K",
                                              (unsigned long long)(uintptr_t)&opbase_emu_current_caller);
    Py_DECREF(module);
    if (installed == NULL) {
        if (opbase_emu_interrupted()) {
            return -1;
        }
        PyErr_Print();
        return 0;
    }
    Py_DECREF(installed);
    return opbase_emu_bridge_entry != NULL && opbase_emu_bridge_exit != NULL;
}

/* The program's signal dispositions, kept across the interpreter's start. A C library must not take
 * the program's signals: with its default action SIGINT ends a C program, and a handler the program
 * installed is the program's. install_signal_handlers = 0 is not enough: importing Python's signal
 * module (the emulator's modules do) still puts its KeyboardInterrupt handler on a SIGINT left at
 * SIG_DFL, and a Ctrl-C would then become an exception inside whatever call the program was in. */
static struct sigaction opbase_emu_dispositions[NSIG];

static void opbase_emu_save_signals(void) {
    for (int sig = 1; sig < NSIG; sig++) {
        sigaction(sig, NULL, &opbase_emu_dispositions[sig]);
    }
}

static void opbase_emu_restore_signals(void) {
    for (int sig = 1; sig < NSIG; sig++) {
        struct sigaction now;
        if (sigaction(sig, NULL, &now) == 0 && now.sa_handler != opbase_emu_dispositions[sig].sa_handler) {
            sigaction(sig, &opbase_emu_dispositions[sig], NULL);
        }
    }
}

static void opbase_emu_start(void) {
    if (!Py_IsInitialized()) {
        opbase_emu_save_signals();
        PyConfig config;
        PyConfig_InitPythonConfig(&config);
        config.install_signal_handlers = 0; /* the program's signals stay the program's */
        /* No site-packages of the base installation: the path is exactly the one of the Python that
         * built the SDK (OPBASE_EMU_PYTHONPATH), as a venv has it, so its emulator is the one imported. */
        config.site_import = 0;
        PyStatus status = Py_InitializeFromConfig(&config);
        PyConfig_Clear(&config);
        if (PyStatus_Exception(status) || !Py_IsInitialized()) {
            opbase_emu_fail("Python did not initialise: is PYTHONHOME right? source the SDK's set_env.sh");
            __atomic_store_n(&opbase_emu_started, 1, __ATOMIC_RELEASE);
            return;
        }
        opbase_emu_owner = 1;
        int ok;
        for (;;) {
            ok = opbase_emu_import();
            opbase_emu_restore_signals();
            if (ok != -1) {
                break;
            }
            /* SIGINT came while Python's handler stood on it: give it to the program's own
             * disposition (the default ends the program, a handler of its own runs), then go on */
            raise(SIGINT);
        }
        if (!ok) {
            opbase_emu_fail("emulator.sdk.bridge did not import (the traceback is above)");
        }
        opbase_emu_ready = ok;
        __atomic_store_n(&opbase_emu_started, 1, __ATOMIC_RELEASE);
        PyEval_SaveThread(); /* other threads may now take the GIL */
        if (ok) {
            on_exit(opbase_emu_at_exit, NULL);
        }
        return;
    }
    PyGILState_STATE gil = PyGILState_Ensure();
    int ok = opbase_emu_import();
    if (ok == -1) {
        /* a Python program's Ctrl-C while the bridge loaded: this call fails with its status, the
         * interrupt is raised for the program once the call returns (as inside a call), and the
         * next call starts the bridge again */
        PyErr_SetInterrupt();
    } else {
        if (!ok) {
            opbase_emu_fail("emulator.sdk.bridge did not import (the traceback is above)");
        }
        opbase_emu_ready = ok;
        __atomic_store_n(&opbase_emu_started, 1, __ATOMIC_RELEASE);
    }
    PyGILState_Release(gil);
}

/* A C thread's Python thread state lives as long as the thread: the runtime keeps per-thread state
 * in it (threading.local: the current context aclrtSetDevice set, the recent error message), which a
 * thread state made and dropped by every call would lose between two calls. */
static pthread_key_t opbase_emu_thread_key;
static pthread_once_t opbase_emu_key_once = PTHREAD_ONCE_INIT;

static void opbase_emu_thread_end(void *tstate) {
    if (tstate != NULL && Py_IsInitialized()) {
        /* pthread may have cleared Python's own key already: delete the state directly, not through
         * PyGILState_Release, which looks the state up by that key */
        PyEval_RestoreThread((PyThreadState *)tstate);
        PyThreadState_Clear((PyThreadState *)tstate);
        PyThreadState_DeleteCurrent(); /* and releases the GIL */
    }
}

static void opbase_emu_make_key(void) { pthread_key_create(&opbase_emu_thread_key, opbase_emu_thread_end); }

/* Enter the interpreter; 0 when the emulator is not available (the caller returns its failure). */
int opbase_emu_enter(PyGILState_STATE *gil) {
    if (!__atomic_load_n(&opbase_emu_started, __ATOMIC_ACQUIRE)) {
        pthread_mutex_lock(&opbase_emu_start_lock);
        if (!opbase_emu_started) {
            opbase_emu_start();
        }
        pthread_mutex_unlock(&opbase_emu_start_lock);
    }
    if (!opbase_emu_ready) {
        return 0;
    }
    pthread_once(&opbase_emu_key_once, opbase_emu_make_key);
    int fresh = PyGILState_GetThisThreadState() == NULL; /* a thread Python has not seen yet */
    *gil = PyGILState_Ensure();
    if (fresh) {
        PyGILState_Ensure(); /* one more hold, given back when the thread ends */
        pthread_setspecific(opbase_emu_thread_key, PyGILState_GetThisThreadState());
    }
    return 1;
}

void opbase_emu_leave(PyGILState_STATE gil) { PyGILState_Release(gil); }

typedef struct {
    const char *name;
    PyObject *fn; /* the bridge's entry for this function, looked up on its first call */
} opbase_emu_entry;

/* Call one function's entry with its C arguments (n new references in argv, which must have one
 * free slot before it); the entry returns a status, an address, or (out-values..., status). NULL
 * when a call could not be made: the error is printed once and the caller returns its failure. */
PyObject *opbase_emu_run(opbase_emu_entry *entry, PyObject **argv, size_t n) {
    PyObject *result = NULL;
    int packed = 1;
    for (size_t i = 0; i < n; i++) {
        packed &= argv[i] != NULL;
    }
    if (!packed) {
        fprintf(stderr, "opbase-emu: %s: an argument could not be passed to Python\n", entry->name);
        PyErr_Clear();
    } else {
        if (entry->fn == NULL) {
            entry->fn = PyObject_CallFunction(opbase_emu_bridge_entry, "s", entry->name);
        }
        if (entry->fn != NULL) {
            result = PyObject_Vectorcall(entry->fn, argv, n | PY_VECTORCALL_ARGUMENTS_OFFSET, NULL);
        }
        if (result == NULL && !opbase_emu_owner && PyErr_ExceptionMatches(PyExc_KeyboardInterrupt)) {
            /* a Python program's Ctrl-C (only a Python host has Python's SIGINT handler) arrived inside
             * the call: the call fails with its status, and the interrupt is raised again for the
             * Python caller once the library returns to it, as with a real C library's call */
            PyErr_Clear();
            PyErr_SetInterrupt();
        } else if (result == NULL) { /* the bridge turns every error into a status: this is a bug, said once */
            PyErr_Print();
        }
    }
    for (size_t i = 0; i < n; i++) {
        Py_XDECREF(argv[i]);
    }
    return result;
}

/* The status (or address) in an entry's result, which is a number or a tuple ending in one. */
long long opbase_emu_status(PyObject *result, Py_ssize_t outputs, long long failure) {
    PyObject *status = result;
    if (PyTuple_Check(result)) {
        if (PyTuple_GET_SIZE(result) != outputs + 1) {
            fprintf(stderr, "opbase-emu: the bridge returned %zd values, not %zd\n", PyTuple_GET_SIZE(result),
                    outputs + 1);
            return failure;
        }
        status = PyTuple_GET_ITEM(result, outputs);
    }
    long long value = (long long)PyLong_AsUnsignedLongLongMask(status);
    if (PyErr_Occurred()) {
        PyErr_Print();
        return failure;
    }
    return value;
}

/* Out-value i of a result that carries them: an integer, an address (None is NULL) or a float. */
unsigned long long opbase_emu_out(PyObject *result, Py_ssize_t i) {
    PyObject *item = PyTuple_GET_ITEM(result, i);
    return item == Py_None ? 0 : PyLong_AsUnsignedLongLongMask(item);
}

double opbase_emu_out_real(PyObject *result, Py_ssize_t i) { return PyFloat_AsDouble(PyTuple_GET_ITEM(result, i)); }

/* A C string argument as Python text: bytes that are not UTF-8 survive as the file system does. */
PyObject *opbase_emu_text(const char *text) {
    if (text == NULL) {
        Py_RETURN_NONE;
    }
    return PyUnicode_DecodeFSDefault(text);
}

/* Release a result; a conversion that failed on the way (a bug) turns the status into the failure. */
long long opbase_emu_done(PyObject *result, long long status, long long failure) {
    Py_DECREF(result);
    if (PyErr_Occurred()) {
        PyErr_Print();
        return failure;
    }
    return status;
}
