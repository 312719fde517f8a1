package dev.transforms.runtime;

import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Optional;

/**
 * Locations of tables and files as Iceberg's file IO, Spark and PyIceberg take them. A location's path is
 * taken as it is written, never decoding an escape: the files of {@code file:///x/My%20Project} are in a
 * folder named {@code My%20Project}, not {@code My Project}. And an object store lists by key prefix, not by
 * folder: listing {@code s3://b/t} also lists {@code s3://b/t_archive/...}.
 */
public final class Locations {
  private Locations() {}

  /**
   * The location of a local folder or file: {@code file://} and its absolute path as it is (a path's URI
   * would escape it).
   *
   * @param path a folder or file
   * @return the location
   */
  public static String of(Path path) {
    return "file://" + path.toAbsolutePath();
  }

  /**
   * The local path of a location, taken as written.
   *
   * @param location a location ({@code /...}, {@code file:/...} or {@code file:///...})
   * @return the path, or empty for another scheme or a location naming a host
   */
  public static Optional<Path> localPath(String location) {
    String path = location;
    if (path.startsWith("file:")) {
      path = path.substring("file:".length());
      if (path.startsWith("//")) {
        path = path.substring(2); // an authority, which a local file leaves empty
        if (!path.startsWith("/")) {
          return Optional.empty();
        }
      }
    }
    if (!path.startsWith("/")) {
      return Optional.empty();
    }
    try {
      return Optional.of(Paths.get(path));
    } catch (InvalidPathException e) {
      return Optional.empty();
    }
  }

  /**
   * A table's location as the prefix that lists its files and no one else's: ending in one {@code /}.
   *
   * @param location the table's location
   * @return the prefix to list
   */
  public static String folder(String location) {
    return location.replaceAll("/+$", "") + "/";
  }
}
