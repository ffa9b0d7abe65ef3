package dev.breakwater.ops.http;

import io.netty.handler.codec.http.HttpResponseStatus;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.HashMap;
import java.util.Map;

/**
 * The live page's files, read once from this jar. The table of request paths to classpath resources
 * is fixed here: no part of a request is ever used to name a file or a resource.
 *
 * <p>Immutable after construction; thread-safe.
 */
final class PageAssets {

    private static final String BASE = "/dev/breakwater/ops/http/page/";

    /** Request path to (resource name, content type). */
    private static final Map<String, String[]> FILES = Map.of(
            "/", new String[] {"index.html", "text/html; charset=utf-8"},
            "/index.html", new String[] {"index.html", "text/html; charset=utf-8"},
            "/plot.js", new String[] {"plot.js", "text/javascript; charset=utf-8"},
            "/app.js", new String[] {"app.js", "text/javascript; charset=utf-8"},
            "/page.css", new String[] {"page.css", "text/css; charset=utf-8"});

    private final Map<String, Response> responses;

    PageAssets() {
        Map<String, Response> loaded = new HashMap<>();
        for (Map.Entry<String, String[]> e : FILES.entrySet()) {
            String resource = BASE + e.getValue()[0];
            try (InputStream in = PageAssets.class.getResourceAsStream(resource)) {
                if (in == null) {
                    throw new IllegalStateException("page resource " + resource + " is missing from the storage-ops jar");
                }
                loaded.put(e.getKey(), new Response(HttpResponseStatus.OK, e.getValue()[1], in.readAllBytes()));
            } catch (IOException ex) {
                throw new UncheckedIOException("reading page resource " + resource, ex);
            }
        }
        this.responses = Map.copyOf(loaded);
    }

    /** The page file served at {@code path}, or {@code null}. */
    Response get(String path) {
        return responses.get(path);
    }
}
