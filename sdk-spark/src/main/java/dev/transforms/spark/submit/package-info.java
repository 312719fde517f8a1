/**
 * Running a pipeline's application jar with {@code spark-submit}: {@link dev.transforms.spark.submit.PipelineMain}.
 */
package dev.transforms.spark.submit;
