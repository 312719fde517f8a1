/**
 * Testing transforms with JUnit 5: {@code @TransformsTest}, {@link dev.transforms.testing.TestWarehouse},
 * and AssertJ assertions on builds and tables.
 */
package dev.transforms.testing;
