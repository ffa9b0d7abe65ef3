package dev.breakwater.ops.http;

import io.netty.handler.codec.http.HttpResponseStatus;
import java.nio.charset.StandardCharsets;

/**
 * A complete response body before it becomes a Netty message. Immutable (the body array is not
 * modified once built).
 *
 * @param status      HTTP status
 * @param contentType value of the Content-Type header
 * @param body        the bytes to send
 */
record Response(HttpResponseStatus status, String contentType, byte[] body) {

    static final String JSON = "application/json; charset=utf-8";
    static final String TEXT = "text/plain; charset=utf-8";

    static Response json(HttpResponseStatus status, Object value) {
        return new Response(status, JSON, StatsJson.bytes(value));
    }

    static Response text(HttpResponseStatus status, String message) {
        return new Response(status, TEXT, (message + "\n").getBytes(StandardCharsets.UTF_8));
    }
}
