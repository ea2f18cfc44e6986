package com.qrpayout.sdk;

import java.net.URI;
import java.time.Duration;

/**
 * What the client's {@code onRetry} callback is told before each retry.
 *
 * @param attempt the attempt that failed (1 for the first)
 * @param status the HTTP status, 0 after a network error
 * @param tag the error body's {@code _tag}, {@code HttpError} without one, the exception's class name
 *     after a network error
 * @param delay the wait before the next attempt
 * @param uri the request's URI
 */
public record RetryInfo(int attempt, int status, String tag, Duration delay, URI uri) {}
