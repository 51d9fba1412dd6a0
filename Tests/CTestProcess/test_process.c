// Set-up of the test process itself, before Swift Testing starts.
//
// Swift Testing records a backtrace for every Swift error thrown anywhere in the test process
// (to show where a test's error came from), by unwinding the stack at each throw. The suites
// throw and catch hundreds of thousands of errors on purpose (hostile packages refused, retries,
// polling), and that unwinding was most of the suites' CPU: 496 CPU-s of 546 for the whole run on
// 2026-11-29, which took 321 s; without it, 130 CPU-s and 119 s. So it is off unless asked for:
// SWT_SWIFT_ERROR_BACKTRACING_ENABLED=1 in the environment turns it back on (a failing test's
// thrown error then names its origin).
#include <stdlib.h>

__attribute__((constructor)) static void iapkg_tests_skip_error_backtraces(void) {
    setenv("SWT_SWIFT_ERROR_BACKTRACING_ENABLED", "0", 0);
}
