/**
 * Advisories of Spark transforms: a Spark listener sees the SQL executions and jobs of each running
 * transform (told apart by a job tag the engine sets on the transform's thread), and
 * {@code PlanAdvice} inspects their plans for the review guide's patterns. The engine drains the listener bus before judging a run, so every event of the run is in.
 *
 * <p><b>Internal.</b> Not API; may change in any release. The rules are listed in
 * {@code docs/best-practices.md}.
 */
package dev.transforms.spark.internal.advice;
