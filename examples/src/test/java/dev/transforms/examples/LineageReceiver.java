package dev.transforms.examples;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;

/** An OpenLineage HTTP receiver on 127.0.0.1 for tests: keeps every event body it is sent, answers 200. */
final class LineageReceiver implements AutoCloseable {

  final List<String> bodies = new CopyOnWriteArrayList<>();
  final List<String> authorizations = new CopyOnWriteArrayList<>();
  private final HttpServer server;

  LineageReceiver() throws IOException {
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.setExecutor(Executors.newFixedThreadPool(2, r -> {
      Thread thread = new Thread(r, "lineage-receiver");
      thread.setDaemon(true);
      return thread;
    }));
    server.createContext("/api/v1/lineage", exchange -> {
      try (InputStream in = exchange.getRequestBody()) {
        bodies.add(new String(in.readAllBytes(), StandardCharsets.UTF_8));
      }
      String auth = exchange.getRequestHeaders().getFirst("Authorization");
      authorizations.add(auth == null ? "" : auth);
      exchange.sendResponseHeaders(200, -1);
      exchange.close();
    });
    server.start();
  }

  String url() {
    return "http://127.0.0.1:" + server.getAddress().getPort();
  }

  @Override
  public void close() {
    server.stop(0);
  }
}
