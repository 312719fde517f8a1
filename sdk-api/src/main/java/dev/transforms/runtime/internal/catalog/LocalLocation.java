package dev.transforms.runtime.internal.catalog;

import java.nio.file.Path;

/**
 * A local folder or file as a location for Iceberg and Spark. Iceberg's Hadoop file IO, Spark's file sources
 * and PyIceberg take a location's path as it is written and never decode an escape, so a path's URI
 * ({@code file:///x/My%20Project}) names another folder ({@code My%20Project}) than the path. This is
 * {@code file://} and the absolute path as it is.
 */
public final class LocalLocation {
  private LocalLocation() {}

  /**
   * The location of a local path.
   *
   * @param path a folder or file
   * @return {@code file://} and the absolute path, unescaped
   */
  public static String of(Path path) {
    return "file://" + path.toAbsolutePath();
  }
}
