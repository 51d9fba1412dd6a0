#pragma once
#include <bzlib.h>
