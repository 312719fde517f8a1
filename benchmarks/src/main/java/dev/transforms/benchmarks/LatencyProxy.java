package dev.transforms.benchmarks;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Locale;

/**
 * The control side of {@code benchmarks/pyiceberg/latency_proxy.py}, the proxy in front of moto that holds
 * every S3 request back for a fixed delay: sets the delay between cases and reads the proxy's request
 * counts, so that a case reports how many requests one call made.
 */
final class LatencyProxy {

  private static final ObjectMapper JSON = new ObjectMapper();

  private final URI base;
  private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

  /**
   * A proxy's control.
   *
   * @param endpoint the proxy's address, such as {@code http://127.0.0.1:41234}
   */
  LatencyProxy(String endpoint) {
    this.base = URI.create(endpoint.endsWith("/") ? endpoint : endpoint + "/");
  }

  /** Holds every later request back {@code millis} ms (0: none). */
  void delay(double millis) {
    send(HttpRequest.newBuilder(base.resolve(String.format(Locale.ROOT, "__latency-proxy/delay?ms=%s", millis)))
        .PUT(HttpRequest.BodyPublishers.noBody()).build());
  }

  /** The requests the proxy forwarded so far, of every method. */
  long requests() {
    long total = 0;
    for (JsonNode count : send(HttpRequest.newBuilder(base.resolve("__latency-proxy/stats")).GET().build())
        .get("requests")) {
      total += count.asLong();
    }
    return total;
  }

  private JsonNode send(HttpRequest request) {
    try {
      HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
      if (response.statusCode() != 200) {
        throw new IllegalStateException("The latency proxy answered " + response.statusCode() + " to " + request.uri());
      }
      return JSON.readTree(response.body());
    } catch (IOException e) {
      throw new IllegalStateException("Cannot reach the latency proxy at " + base, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }
}
