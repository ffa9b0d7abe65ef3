package dev.breakwater.ops.http;

import dev.breakwater.ops.TunerView;
import dev.breakwater.txn.EngineClosedException;
import dev.breakwater.txn.StorageEngine;
import io.netty.handler.codec.http.HttpResponseStatus;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The fixed table of GET paths the server answers: the JSON endpoints and the page's files.
 *
 * <ul>
 *   <li>{@code /stats}: {@code EngineStatistics} as JSON;
 *   <li>{@code /tuner}: {@link TunerView} (the tuner's weights and history);
 *   <li>{@code /datasets}: {@code EngineLayout} (datasets, indexes, trees, levels, SSTables, shares);
 *   <li>{@code /health}: {@code {"status": "UP" | "FAILED" | "CLOSED", ...}}, 503 unless UP;
 *   <li>{@code /}, {@code /index.html}, {@code /plot.js}, {@code /app.js}, {@code /page.css}: the page.
 * </ul>
 *
 * <p>Thread safety: safe; each call reads the engine afresh (the engine's reads are thread-safe).
 */
final class Endpoints {

    private final StorageEngine engine;
    private final String directory;
    private final PageAssets page = new PageAssets();

    Endpoints(StorageEngine engine, String directory) {
        this.engine = engine;
        this.directory = directory;
    }

    /** The response for a GET of {@code path} (no query string), or {@code null} if there is none. */
    Response get(String path) {
        try {
            switch (path) {
                case "/stats":
                    return Response.json(HttpResponseStatus.OK, engine.statistics());
                case "/tuner":
                    return Response.json(HttpResponseStatus.OK, TunerView.of(engine.statistics(), engine.config()));
                case "/datasets":
                    return Response.json(HttpResponseStatus.OK, engine.layout());
                case "/health":
                    return health(engine.isFailed() ? "FAILED" : "UP");
                default:
                    return page.get(path);
            }
        } catch (EngineClosedException e) {
            return health("CLOSED");
        }
    }

    private Response health(String status) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("status", status);
        body.put("directory", directory);
        if (status.equals("FAILED")) {
            body.put("detail", "the engine refuses writes after a failed fsync or a full disk; reads go on; see its log");
        }
        return Response.json(status.equals("UP") ? HttpResponseStatus.OK : HttpResponseStatus.SERVICE_UNAVAILABLE, body);
    }
}
