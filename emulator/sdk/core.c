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
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

static pthread_once_t opbase_emu_once = PTHREAD_ONCE_INIT;
static PyObject *opbase_emu_bridge_call = NULL; /* emulator.sdk.bridge.call */
static PyObject *opbase_emu_bridge_exit = NULL; /* emulator.sdk.bridge.at_exit */
static int opbase_emu_ready = 0;
static int opbase_emu_owner = 0; /* this library started the interpreter */

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
        PyErr_Print();
        return 0;
    }
    opbase_emu_bridge_call = PyObject_GetAttrString(module, "call");
    opbase_emu_bridge_exit = PyObject_GetAttrString(module, "at_exit");
    Py_DECREF(module);
    return opbase_emu_bridge_call != NULL && opbase_emu_bridge_exit != NULL;
}

static void opbase_emu_start(void) {
    if (!Py_IsInitialized()) {
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
            return;
        }
        opbase_emu_owner = 1;
        int ok = opbase_emu_import();
        if (!ok) {
            opbase_emu_fail("emulator.sdk.bridge did not import (the traceback is above)");
        }
        opbase_emu_ready = ok;
        PyEval_SaveThread(); /* other threads may now take the GIL */
        if (ok) {
            on_exit(opbase_emu_at_exit, NULL);
        }
        return;
    }
    PyGILState_STATE gil = PyGILState_Ensure();
    opbase_emu_ready = opbase_emu_import();
    if (!opbase_emu_ready) {
        opbase_emu_fail("emulator.sdk.bridge did not import (the traceback is above)");
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
    pthread_once(&opbase_emu_once, opbase_emu_start);
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

/* Call the bridge with the C arguments as a tuple of numbers and the caller's return address (the
 * site of the call); the result is a status or an address. */
long long opbase_emu_invoke(const char *name, PyObject *args, long long failure, void *caller) {
    if (args == NULL) {
        PyErr_Print();
        return failure;
    }
    PyObject *result = PyObject_CallFunction(opbase_emu_bridge_call, "sOK", name, args, (unsigned long long)(uintptr_t)caller);
    Py_DECREF(args);
    if (result == NULL) { /* the bridge turns every error into a status: this is a bug, said once */
        PyErr_Print();
        return failure;
    }
    long long value = (long long)PyLong_AsUnsignedLongLongMask(result);
    Py_DECREF(result);
    if (PyErr_Occurred()) {
        PyErr_Print();
        return failure;
    }
    return value;
}
