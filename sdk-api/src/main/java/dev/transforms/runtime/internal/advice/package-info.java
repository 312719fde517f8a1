/**
 * Advisories while a transform runs, the engine-neutral part: the table of rules ({@link
 * dev.transforms.runtime.internal.advice.AdvisoryRule}: identifier, reason, fix), their settings from
 * {@code transforms.properties} ({@link dev.transforms.runtime.internal.advice.AdvisorySettings}) and the
 * per-run collection and judgement ({@link dev.transforms.runtime.internal.advice.RunAdvisories}).
 * Engines detect; this package decides what an advisory does. Internal: may change in any release.
 */
package dev.transforms.runtime.internal.advice;
