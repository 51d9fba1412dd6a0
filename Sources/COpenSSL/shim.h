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
#include <openssl/ec.h>
#include <openssl/bn.h>
#include <openssl/hmac.h>
#include <openssl/objects.h>
#include <openssl/x509v3.h>

/// Distinguished names on one line, in certificate order, "CN=…, O=…", UTF-8 kept.
static inline unsigned long iapkg_name_print_flags(void) {
    return XN_FLAG_SEP_CPLUS_SPC | XN_FLAG_FN_SN | (ASN1_STRFLGS_RFC2253 & ~ASN1_STRFLGS_ESC_MSB);
}

/// CMS_verify flags for a detached signature over binary bytes, the signer's chain not judged.
static inline unsigned int iapkg_cms_detached_flags(void) {
    return CMS_DETACHED | CMS_BINARY | CMS_NO_SIGNER_CERT_VERIFY;
}

#include <openssl/sha.h>
#include <openssl/md5.h>

/// A message digest's running state for OpenSSL's direct digest functions (SHA1_Init…), which
/// need none of EVP's provider set-up: no configuration file read, no name table built (about 5
/// million instructions before the first EVP digest of a process), the same assembly code.
typedef union {
    SHA_CTX sha1;
    SHA256_CTX sha256;
    SHA512_CTX sha512;
    MD5_CTX md5;
} iapkg_digest_state;

/// Algorithm numbers of the iapkg_digest_* functions.
enum { IAPKG_SHA1 = 0, IAPKG_SHA224 = 1, IAPKG_SHA256 = 2, IAPKG_SHA384 = 3, IAPKG_SHA512 = 4, IAPKG_MD5 = 5 };

/// Starts `state` for `algorithm`; returns 1 on success.
static inline int iapkg_digest_init(iapkg_digest_state *state, int algorithm) {
    switch (algorithm) {
    case IAPKG_SHA1: return SHA1_Init(&state->sha1);
    case IAPKG_SHA224: return SHA224_Init(&state->sha256);
    case IAPKG_SHA256: return SHA256_Init(&state->sha256);
    case IAPKG_SHA384: return SHA384_Init(&state->sha512);
    case IAPKG_SHA512: return SHA512_Init(&state->sha512);
    case IAPKG_MD5: return MD5_Init(&state->md5);
    default: return 0;
    }
}

/// Feeds `count` bytes into `state`.
static inline void iapkg_digest_update(iapkg_digest_state *state, int algorithm, const void *bytes, size_t count) {
    switch (algorithm) {
    case IAPKG_SHA1: SHA1_Update(&state->sha1, bytes, count); break;
    case IAPKG_SHA224: SHA224_Update(&state->sha256, bytes, count); break;
    case IAPKG_SHA256: SHA256_Update(&state->sha256, bytes, count); break;
    case IAPKG_SHA384: SHA384_Update(&state->sha512, bytes, count); break;
    case IAPKG_SHA512: SHA512_Update(&state->sha512, bytes, count); break;
    case IAPKG_MD5: MD5_Update(&state->md5, bytes, count); break;
    }
}

/// Writes the digest into `out` (room for 64 bytes).
static inline void iapkg_digest_final(iapkg_digest_state *state, int algorithm, unsigned char *out) {
    switch (algorithm) {
    case IAPKG_SHA1: SHA1_Final(out, &state->sha1); break;
    case IAPKG_SHA224: SHA224_Final(out, &state->sha256); break;
    case IAPKG_SHA256: SHA256_Final(out, &state->sha256); break;
    case IAPKG_SHA384: SHA384_Final(out, &state->sha512); break;
    case IAPKG_SHA512: SHA512_Final(out, &state->sha512); break;
    case IAPKG_MD5: MD5_Final(out, &state->md5); break;
    }
}
