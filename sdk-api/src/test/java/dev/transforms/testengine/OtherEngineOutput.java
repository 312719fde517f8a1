package dev.transforms.testengine;

import dev.transforms.api.TableOutput;
import dev.transforms.runtime.spec.Handle;

/** A handle of an engine that is never installed, to test the missing-engine error. */
@Handle(engine = "absent", role = Handle.Role.OUTPUT, paths = {TableOutput.class}, artifact = "dev.transforms:sdk-absent")
public interface OtherEngineOutput {}
