// Set-up of the test process itself, before Swift Testing starts.
//
// Swift Testing records a backtrace for every Swift error thrown anywhere in the test process
// (to show where a test's error came from), by unwinding the stack at each throw. The suites
// throw and catch hundreds of thousands of errors on purpose (hostile packages refused, retries,
// polling), and that unwinding was most of their cost: the whole run took 321 s and 546 CPU-s
// (496 user) with it, 119 s and 180 CPU-s (130 user) without (2026-11-29, 2 cores). So it is off
// unless asked for: SWT_SWIFT_ERROR_BACKTRACING_ENABLED=1 in the environment turns it back on (a
// failing test's thrown error then names its origin).
#include "CTestProcess.h"

#include <stdlib.h>

static int given;

__attribute__((constructor)) static void iapkg_tests_skip_error_backtraces(void) {
    given = getenv("SWT_SWIFT_ERROR_BACKTRACING_ENABLED") != NULL;
    setenv("SWT_SWIFT_ERROR_BACKTRACING_ENABLED", "0", 0);
}

int iapkg_tests_backtrace_setting_was_given(void) { return given; }
