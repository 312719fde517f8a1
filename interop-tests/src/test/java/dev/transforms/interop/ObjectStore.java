package dev.transforms.interop;

import static org.assertj.core.api.Assertions.fail;

import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.iceberg.CatalogProperties;
import org.apache.iceberg.aws.s3.S3FileIO;
import org.junit.jupiter.api.Assumptions;

/**
 * The S3 store of the object-store interop test: moto's server, which {@code .ci/interop-test} starts on
 * 127.0.0.1 and names with {@code -Dinterop.s3=http://127.0.0.1:PORT}. It gives the catalog properties that
 * put a warehouse there, for Iceberg Java ({@code S3FileIO}, as a user's {@code transforms.properties} sets
 * them, path-style access) and for PyIceberg (pyarrow's S3 file system), and creates buckets. The credentials
 * are a test's: moto takes any.
 */
final class ObjectStore {
  private static final String ACCESS_KEY = "interop-access-key";
  private static final String SECRET_KEY = "interop-secret-key";
  private static final String REGION = "us-east-1";

  private final String endpoint;

  private ObjectStore(String endpoint) {
    this.endpoint = endpoint;
  }

  /**
   * The store {@code -Dinterop.s3} names. Without one the calling test is skipped, saying why, except in CI
   * (the environment variable {@code CI} set), where it fails: CI must run it.
   *
   * @return the store
   */
  static ObjectStore configured() {
    String endpoint = System.getProperty("interop.s3", "");
    if (endpoint.isBlank() || endpoint.startsWith("${")) {
      String why = "no S3 endpoint given (-Dinterop.s3=http://127.0.0.1:PORT of a moto server;"
          + " .ci/interop-test starts one and passes it)";
      String ci = System.getenv("CI");
      if (ci != null && !ci.isEmpty()) {
        fail("CI must run the object-store test, but there is " + why);
      }
      System.out.println("object-store test skipped: " + why); // surefire does not print why a class is skipped
      Assumptions.abort("object-store test skipped: " + why);
    }
    return new ObjectStore(endpoint);
  }

  /** The endpoint, {@code http://127.0.0.1:PORT}. */
  String endpoint() {
    return endpoint;
  }

  /**
   * Iceberg Java's catalog properties: a JDBC catalog on a SQLite file whose tables are in the warehouse on
   * this store, read and written by {@code S3FileIO}.
   *
   * @param uri the catalog's JDBC URI ({@code jdbc:sqlite:...})
   * @param warehouse {@code s3://BUCKET/PATH}
   */
  Map<String, String> javaCatalog(String uri, String warehouse) {
    Map<String, String> properties = new LinkedHashMap<>();
    properties.put(CatalogProperties.URI, uri);
    properties.put(CatalogProperties.WAREHOUSE_LOCATION, warehouse);
    properties.put("jdbc.schema-version", "V1");
    properties.put("jdbc.busy_timeout", "10000");
    properties.putAll(s3FileIo());
    return properties;
  }

  /**
   * PyIceberg's catalog properties for the same warehouse ({@link PyIceberg}'s catalog, which keeps its SQLite
   * file where it is).
   *
   * @param warehouse {@code s3://BUCKET/PATH}
   */
  Map<String, String> pyIcebergCatalog(String warehouse) {
    return Map.of("warehouse", warehouse, "s3.endpoint", endpoint, "s3.access-key-id", ACCESS_KEY,
        "s3.secret-access-key", SECRET_KEY, "s3.region", REGION);
  }

  /** Creates a bucket, through {@code S3FileIO}'s own client. */
  void createBucket(String bucket) {
    try (S3FileIO io = new S3FileIO()) {
      io.initialize(s3FileIo());
      io.client().createBucket(request -> request.bucket(bucket));
    }
  }

  private Map<String, String> s3FileIo() {
    return Map.of(CatalogProperties.FILE_IO_IMPL, S3FileIO.class.getName(), "s3.endpoint", endpoint,
        "s3.path-style-access", "true", "s3.access-key-id", ACCESS_KEY, "s3.secret-access-key", SECRET_KEY,
        "client.region", REGION);
  }
}
