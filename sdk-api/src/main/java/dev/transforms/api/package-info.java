/**
 * What transforms are written with: {@code @Transform}, the dataset annotations ({@code @TableInput},
 * {@code @TableOutput}, {@code @Input}, {@code @Output}), {@code @Incremental}, the contexts, and every
 * exception the SDK throws to users, one class per kind of failure.
 */
package dev.transforms.api;
