#pragma once
/* libxml2 is built with ICU, and encoding.h then pulls in ICU's headers, whose UErrorCode
   clashes with the ICU copy inside Foundation when one Swift module sees both. iapkg never
   touches the ICU parts of libxml2 (only their layout in xmlCharEncodingHandler, which it never
   uses), so they are hidden from the module map. */
#include <libxml/xmlversion.h>
#undef LIBXML_ICU_ENABLED
#include <libxml/parser.h>
#include <libxml/parserInternals.h>
#include <libxml/SAX2.h>
#include <libxml/xmlerror.h>
#include <libxml/tree.h>
