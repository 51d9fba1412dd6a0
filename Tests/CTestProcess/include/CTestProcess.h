#pragma once

/// Nothing to call: this module's one job is done by a constructor as the test process loads
/// (see test_process.c).
