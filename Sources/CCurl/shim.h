// The only C surface of ServiceConfiguration's HTTP transport on Linux: libcurl's easy interface, plus typed
// wrappers for what Swift cannot call directly (curl_easy_setopt and curl_easy_getinfo are variadic).
#ifndef SERVICE_CONFIGURATION_CCURL_SHIM_H
#define SERVICE_CONFIGURATION_CCURL_SHIM_H

// The type-checking macros of typecheck-gcc.h wrap curl_easy_setopt in statement expressions; the wrappers below are
// typed already.
#ifndef CURL_DISABLE_TYPECHECK
#define CURL_DISABLE_TYPECHECK 1
#endif

#include <curl/curl.h>

static inline CURLcode scc_setopt_long(CURL *handle, CURLoption option, long value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode scc_setopt_offset(CURL *handle, CURLoption option, curl_off_t value) {
    return curl_easy_setopt(handle, option, value);
}

/// For options whose value libcurl copies (URLs, paths, header lines are copied by curl_slist_append).
static inline CURLcode scc_setopt_string(CURL *handle, CURLoption option, const char *value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode scc_setopt_pointer(CURL *handle, CURLoption option, void *value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode scc_setopt_list(CURL *handle, CURLoption option, struct curl_slist *list) {
    return curl_easy_setopt(handle, option, list);
}

/// CURLOPT_WRITEFUNCTION and CURLOPT_HEADERFUNCTION share this prototype.
static inline CURLcode scc_setopt_write_function(CURL *handle, CURLoption option, curl_write_callback function) {
    return curl_easy_setopt(handle, option, function);
}

static inline CURLcode scc_setopt_xferinfo_function(CURL *handle, curl_xferinfo_callback function) {
    return curl_easy_setopt(handle, CURLOPT_XFERINFOFUNCTION, function);
}

/// Only HTTP and HTTPS, for the request and for any redirect libcurl would follow: by name where libcurl knows the
/// option (7.85 and later), else by the older bit masks.
static inline CURLcode scc_restrict_protocols_to_http(CURL *handle) {
#if LIBCURL_VERSION_NUM >= 0x075500
    CURLcode code = curl_easy_setopt(handle, CURLOPT_PROTOCOLS_STR, "http,https");
    if (code == CURLE_OK) code = curl_easy_setopt(handle, CURLOPT_REDIR_PROTOCOLS_STR, "http,https");
    return code;
#else
    CURLcode code = curl_easy_setopt(handle, CURLOPT_PROTOCOLS, (long)(CURLPROTO_HTTP | CURLPROTO_HTTPS));
    if (code == CURLE_OK) code = curl_easy_setopt(handle, CURLOPT_REDIR_PROTOCOLS, (long)(CURLPROTO_HTTP | CURLPROTO_HTTPS));
    return code;
#endif
}

static inline CURLcode scc_getinfo_long(CURL *handle, CURLINFO info, long *value) {
    return curl_easy_getinfo(handle, info, value);
}

static inline long scc_global_all(void) { return CURL_GLOBAL_ALL; }

#endif
