#pragma once
#include <openssl/evp.h>
#include <openssl/crypto.h>
#include <openssl/bio.h>
#include <openssl/err.h>
#include <openssl/x509.h>
#include <openssl/x509_vfy.h>
#include <openssl/pem.h>
#include <openssl/cms.h>
#include <openssl/rsa.h>

/// Distinguished names on one line, in certificate order, "CN=…, O=…", UTF-8 kept.
static inline unsigned long iapkg_name_print_flags(void) {
    return XN_FLAG_SEP_CPLUS_SPC | XN_FLAG_FN_SN | (ASN1_STRFLGS_RFC2253 & ~ASN1_STRFLGS_ESC_MSB);
}

/// CMS_verify flags for a detached signature over binary bytes, the signer's chain not judged.
static inline unsigned int iapkg_cms_detached_flags(void) {
    return CMS_DETACHED | CMS_BINARY | CMS_NO_SIGNER_CERT_VERIFY;
}
