package dev.transforms.clustertest.rest;

import jakarta.servlet.DispatcherType;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;
import org.apache.iceberg.jdbc.JdbcCatalog;
import org.apache.iceberg.rest.RESTCatalogAdapter;
import org.apache.iceberg.rest.RESTCatalogServlet;
import org.eclipse.jetty.ee10.servlet.FilterHolder;
import org.eclipse.jetty.ee10.servlet.ServletContextHandler;
import org.eclipse.jetty.ee10.servlet.ServletHolder;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;

/**
 * Starts Iceberg's reference REST catalog on 127.0.0.1 for the loopback cluster test.
 *
 * <p>The catalog behind the servlet is a {@link JdbcCatalog} on SQLite whose warehouse is on object
 * storage through {@code S3FileIO}: the server writes table metadata there, as a real REST catalog does.
 * In front of it, {@link ClientCheck} plays the deployment's identity provider and gateway: OAuth2 client
 * credentials are verified and every call must carry the bearer token they bought and a required header.
 *
 * <p>Configured by environment variables, so no secret is on a command line:
 * <ul>
 *   <li>{@code REST_CATALOG_PORT} (0 picks a free one) and {@code REST_CATALOG_PORT_FILE}, where the
 *       port is written once the server listens;
 *   <li>{@code REST_CATALOG_DATABASE}: the SQLite file; {@code REST_CATALOG_WAREHOUSE}: {@code s3://...};
 *   <li>{@code REST_CATALOG_S3_ENDPOINT}, {@code AWS_ACCESS_KEY_ID}, {@code AWS_SECRET_ACCESS_KEY},
 *       {@code AWS_REGION}: the object store;
 *   <li>{@code REST_CATALOG_CLIENT_ID}, {@code REST_CATALOG_CLIENT_SECRET}: the one accepted client;
 *   <li>{@code REST_CATALOG_REQUIRED_HEADER}: {@code Name=value}, required on every request.
 * </ul>
 */
public final class RestCatalogServer {

  private RestCatalogServer() {}

  /**
   * Starts the server and serves until the process is stopped.
   *
   * @param args none
   * @throws Exception if the server cannot start
   */
  public static void main(String[] args) throws Exception {
    Map<String, String> env = System.getenv();
    Map<String, String> props = new LinkedHashMap<>();
    props.put("uri", "jdbc:sqlite:" + require(env, "REST_CATALOG_DATABASE"));
    props.put("jdbc.schema-version", "V1");
    props.put("jdbc.journal_mode", "WAL");
    props.put("jdbc.busy_timeout", "30000");
    props.put("warehouse", require(env, "REST_CATALOG_WAREHOUSE"));
    props.put("io-impl", "org.apache.iceberg.aws.s3.S3FileIO");
    props.put("s3.endpoint", require(env, "REST_CATALOG_S3_ENDPOINT"));
    props.put("s3.path-style-access", "true");
    props.put("s3.access-key-id", require(env, "AWS_ACCESS_KEY_ID"));
    props.put("s3.secret-access-key", require(env, "AWS_SECRET_ACCESS_KEY"));
    props.put("client.region", env.getOrDefault("AWS_REGION", "us-east-1"));
    JdbcCatalog backend = new JdbcCatalog();
    backend.initialize("rest_backend", props);

    String header = require(env, "REST_CATALOG_REQUIRED_HEADER");
    int equals = header.indexOf('=');
    ClientCheck check = new ClientCheck(require(env, "REST_CATALOG_CLIENT_ID"), require(env, "REST_CATALOG_CLIENT_SECRET"),
        UUID.randomUUID().toString(), header.substring(0, equals), header.substring(equals + 1));

    Server server = new Server();
    ServerConnector connector = new ServerConnector(server);
    connector.setHost("127.0.0.1");
    connector.setPort(Integer.parseInt(env.getOrDefault("REST_CATALOG_PORT", "0")));
    server.addConnector(connector);
    ServletContextHandler context = new ServletContextHandler();
    context.addFilter(new FilterHolder(check), "/*", EnumSet.of(DispatcherType.REQUEST));
    context.addServlet(new ServletHolder(new RESTCatalogServlet(new RESTCatalogAdapter(backend))), "/*");
    server.setHandler(context);
    server.setStopAtShutdown(true);
    server.start();

    int port = connector.getLocalPort();
    String portFile = env.get("REST_CATALOG_PORT_FILE");
    if (portFile != null) {
      Path target = Path.of(portFile);
      Path partial = target.resolveSibling(target.getFileName() + ".partial");
      Files.writeString(partial, Integer.toString(port));
      Files.move(partial, target, java.nio.file.StandardCopyOption.ATOMIC_MOVE);
    }
    System.out.println("REST catalog listening on http://127.0.0.1:" + port + " (warehouse " + props.get("warehouse") + ")");
    server.join();
  }

  private static String require(Map<String, String> env, String name) throws IOException {
    String value = env.get(name);
    if (value == null || value.isEmpty()) {
      throw new IOException("Environment variable " + name + " is not set");
    }
    return value;
  }
}
