package dev.transforms.runtime.spi;

/** Whether a parameter names an Iceberg table or a plain file dataset. */
public enum DatasetKind {
  /** Declared with {@code @TableInput} or {@code @TableOutput}. */
  TABLE,
  /** Declared with {@code @Input} or {@code @Output}. */
  FILES
}
