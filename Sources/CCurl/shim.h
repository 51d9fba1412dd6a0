#pragma once
#include <curl/curl.h>

// curl_easy_setopt and curl_easy_getinfo are variadic, which Swift cannot call: one typed inline
// function per kind of argument, each passing exactly the type libcurl reads for that option.

/// An option that takes a long (CURLOPT_NOSIGNAL, CURLOPT_UPLOAD, timeouts, ...).
static inline CURLcode iapkg_curl_set_long(CURL *handle, CURLoption option, long value) {
    return curl_easy_setopt(handle, option, value);
}

/// An option that takes a curl_off_t (CURLOPT_INFILESIZE_LARGE).
static inline CURLcode iapkg_curl_set_offset(CURL *handle, CURLoption option, curl_off_t value) {
    return curl_easy_setopt(handle, option, value);
}

/// An option that takes a C string, which libcurl copies (CURLOPT_URL, CURLOPT_CUSTOMREQUEST, ...).
static inline CURLcode iapkg_curl_set_string(CURL *handle, CURLoption option, const char *value) {
    return curl_easy_setopt(handle, option, value);
}

/// An option that takes a data pointer (CURLOPT_WRITEDATA, CURLOPT_READDATA, CURLOPT_HEADERDATA).
static inline CURLcode iapkg_curl_set_pointer(CURL *handle, CURLoption option, void *value) {
    return curl_easy_setopt(handle, option, value);
}

/// CURLOPT_HTTPHEADER: the request's header lines (the list must live until the transfer ends).
static inline CURLcode iapkg_curl_set_headers(CURL *handle, struct curl_slist *headers) {
    return curl_easy_setopt(handle, CURLOPT_HTTPHEADER, headers);
}

/// The callback type of CURLOPT_WRITEFUNCTION, CURLOPT_HEADERFUNCTION and CURLOPT_READFUNCTION.
typedef size_t (*iapkg_curl_data_callback)(char *buffer, size_t size, size_t count, void *user);

/// An option that takes a data callback (CURLOPT_WRITEFUNCTION, CURLOPT_HEADERFUNCTION, CURLOPT_READFUNCTION).
static inline CURLcode iapkg_curl_set_callback(CURL *handle, CURLoption option, iapkg_curl_data_callback callback) {
    return curl_easy_setopt(handle, option, callback);
}

/// The callback type of CURLOPT_SEEKFUNCTION: moves the body to `offset` (libcurl asks for this
/// when it sends a request again on a new connection, the reused one having been closed).
typedef int (*iapkg_curl_seek_callback)(void *user, curl_off_t offset, int origin);

/// CURLOPT_SEEKFUNCTION.
static inline CURLcode iapkg_curl_set_seek_callback(CURL *handle, iapkg_curl_seek_callback callback) {
    return curl_easy_setopt(handle, CURLOPT_SEEKFUNCTION, callback);
}

/// CURLINFO_RESPONSE_CODE: the last response's HTTP status.
static inline long iapkg_curl_response_code(CURL *handle) {
    long code = 0;
    if (curl_easy_getinfo(handle, CURLINFO_RESPONSE_CODE, &code) != CURLE_OK) return 0;
    return code;
}
