package dev.transforms.lineage;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;

/**
 * An OpenLineage HTTP receiver on 127.0.0.1 for tests: keeps every event body and the Authorization
 * header it came with, and answers as told: 200, 500, or never (it hangs until closed).
 */
final class LineageReceiver implements AutoCloseable {

  /** How the receiver answers. */
  enum Mode { OK, ERROR, HANG }

  final List<String> bodies = new CopyOnWriteArrayList<>();
  final List<String> authorizations = new CopyOnWriteArrayList<>();
  private final HttpServer server;
  private final CountDownLatch released = new CountDownLatch(1);

  LineageReceiver(Mode mode) throws IOException {
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.setExecutor(Executors.newCachedThreadPool(r -> {
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
      if (mode == Mode.HANG) {
        try {
          released.await();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }
      exchange.sendResponseHeaders(mode == Mode.ERROR ? 500 : 200, -1);
      exchange.close();
    });
    server.start();
  }

  /**
   * The receiver's URL.
   *
   * @return http://127.0.0.1:PORT
   */
  String url() {
    return "http://127.0.0.1:" + server.getAddress().getPort();
  }

  /** A URL where nothing listens. */
  static String absent() throws IOException {
    try (java.net.ServerSocket socket = new java.net.ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return "http://127.0.0.1:" + socket.getLocalPort();
    }
  }

  @Override
  public void close() {
    released.countDown();
    server.stop(0);
  }
}
