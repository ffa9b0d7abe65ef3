package dev.breakwater.tools;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code breakwater stats URL}: fetches a running engine's statistics endpoint with one GET and
 * pretty-prints the JSON. A URL without a path gets {@code /stats}; any other path (such as
 * {@code /tuner}, {@code /datasets} or {@code /health}) is fetched as given.
 *
 * <p>Thread safety: one run per instance.
 */
@Command(name = "stats", mixinStandardHelpOptions = true,
        description = "Fetch a running engine's stats endpoint (e.g. http://127.0.0.1:8080) and pretty-print the JSON.")
final class StatsCommand implements Callable<Integer> {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Parameters(index = "0", paramLabel = "URL", description = "The endpoint; without a path, /stats is fetched.")
    URI url;
    @Option(names = "--timeout", paramLabel = "SECONDS", description = "Connect and response timeout. Default: ${DEFAULT-VALUE}.")
    int timeoutSeconds = 5;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws IOException, InterruptedException {
        URI target = url.getPath() == null || url.getPath().isEmpty() || url.getPath().equals("/") ? url.resolve("/stats") : url;
        if (!"http".equals(target.getScheme()) && !"https".equals(target.getScheme())) {
            throw new IllegalArgumentException("not an http(s) URL: " + url);
        }
        Duration timeout = Duration.ofSeconds(timeoutSeconds);
        HttpClient client = HttpClient.newBuilder().connectTimeout(timeout).build();
        HttpResponse<String> response;
        try {
            response = client.send(HttpRequest.newBuilder(target).timeout(timeout).GET().build(),
                    HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new IOException("no answer from " + target + ": " + (e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage()), e);
        }
        if (response.statusCode() != 200) {
            throw new IOException("GET " + target + " answered HTTP " + response.statusCode());
        }
        JsonNode node;
        try {
            node = JSON.readTree(response.body());
        } catch (JsonProcessingException e) {
            throw new IOException("GET " + target + " did not answer JSON: " + e.getOriginalMessage(), e);
        }
        spec.commandLine().getOut().println(JSON.writerWithDefaultPrettyPrinter().writeValueAsString(node));
        spec.commandLine().getOut().flush();
        return BreakwaterCli.OK;
    }
}
