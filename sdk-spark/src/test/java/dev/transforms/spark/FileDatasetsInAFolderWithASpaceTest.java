package dev.transforms.spark;

/**
 * The file datasets of {@link FileDatasetsTest} in a warehouse whose folder's name URIs escape, as users'
 * folders often are: Spark must write and read the files in that folder, where the build stages and publishes
 * them, not in one named by the escaped form ({@code My%20Project}).
 */
class FileDatasetsInAFolderWithASpaceTest extends FileDatasetsTest {
  @Override
  String warehouseFolder() {
    return "My Project/warehouse";
  }
}
