#pragma once

/// Whether SWT_SWIFT_ERROR_BACKTRACING_ENABLED was already in the environment when the test
/// process loaded (1) or was set to 0 by this module's constructor (0); see test_process.c.
int iapkg_tests_backtrace_setting_was_given(void);
