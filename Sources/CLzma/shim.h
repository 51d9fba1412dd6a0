#pragma once
#include <lzma.h>
