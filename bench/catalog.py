"""The benchmark's models in one place: name, group, timed steps and, for
keras.applications models, the constructor and image side.

models.py builds them and run.py times them; this module imports nothing
but the standard library, so that run.py's driver reads the names without
importing TensorFlow (only its worker processes do).
"""

import collections

Model = collections.namedtuple("Model", "name group steps application side")

# steps: timed steps at batch 1 (fewer at larger batches, see run.py),
# enough for a stable median in a few seconds per runner.
MODELS = [
    # The models written out in models.py (bench/run.py's default).
    Model("mlp", "default", 2000, None, None),
    Model("cnn", "default", 500, None, None),
    Model("resnet50", "default", 20, None, None),
    Model("mobilenetv2", "default", 40, None, None),
    Model("transformer", "default", 100, None, None),
    # The other keras.applications families that tfc compiles, one model
    # each (bench/run.py --models applications).
    Model("efficientnetb0", "applications", 40, "EfficientNetB0", 224),
    Model("densenet121", "applications", 20, "DenseNet121", 224),
    Model("inceptionv3", "applications", 20, "InceptionV3", 299),
    Model("xception", "applications", 20, "Xception", 299),
    Model("convnexttiny", "applications", 10, "ConvNeXtTiny", 224),
    Model("mobilenetv3small", "applications", 100, "MobileNetV3Small", 224),
    # The rest of the keras.applications models that the broad corpus
    # (test/corpus/broad.py) compiles, at their own image sizes
    # (bench/run.py --models other-applications).
    Model("resnet50v2", "other-applications", 20, "ResNet50V2", 224),
    Model("resnet101", "other-applications", 10, "ResNet101", 224),
    Model("resnet152", "other-applications", 10, "ResNet152", 224),
    Model("resnet101v2", "other-applications", 10, "ResNet101V2", 224),
    Model("vgg16", "other-applications", 10, "VGG16", 224),
    Model("vgg19", "other-applications", 10, "VGG19", 224),
    Model("mobilenet", "other-applications", 40, "MobileNet", 224),
    Model("mobilenetv3large", "other-applications", 40, "MobileNetV3Large", 224),
    Model("densenet169", "other-applications", 20, "DenseNet169", 224),
    Model("inceptionresnetv2", "other-applications", 10, "InceptionResNetV2", 299),
    Model("efficientnetb1", "other-applications", 30, "EfficientNetB1", 240),
    Model("efficientnetv2b0", "other-applications", 40, "EfficientNetV2B0", 224),
    Model("efficientnetv2s", "other-applications", 10, "EfficientNetV2S", 384),
    Model("nasnetmobile", "other-applications", 30, "NASNetMobile", 224),
    # The larger members of those families: the same ops on more channels
    # and larger images (bench/run.py --models large-applications). A step
    # of the largest at batch 32 takes TensorFlow tens of seconds, so
    # their runs are long: hours for the group at both batches.
    Model("efficientnetb2", "large-applications", 30, "EfficientNetB2", 260),
    Model("efficientnetb3", "large-applications", 20, "EfficientNetB3", 300),
    Model("efficientnetb4", "large-applications", 10, "EfficientNetB4", 380),
    Model("efficientnetb5", "large-applications", 5, "EfficientNetB5", 456),
    Model("efficientnetb6", "large-applications", 5, "EfficientNetB6", 528),
    Model("efficientnetb7", "large-applications", 5, "EfficientNetB7", 600),
    Model("efficientnetv2b1", "large-applications", 30, "EfficientNetV2B1", 240),
    Model("efficientnetv2b2", "large-applications", 30, "EfficientNetV2B2", 260),
    Model("efficientnetv2b3", "large-applications", 20, "EfficientNetV2B3", 300),
    Model("efficientnetv2m", "large-applications", 5, "EfficientNetV2M", 480),
    Model("efficientnetv2l", "large-applications", 5, "EfficientNetV2L", 480),
    Model("convnextsmall", "large-applications", 10, "ConvNeXtSmall", 224),
    Model("convnextbase", "large-applications", 5, "ConvNeXtBase", 224),
    Model("convnextlarge", "large-applications", 5, "ConvNeXtLarge", 224),
    Model("convnextxlarge", "large-applications", 5, "ConvNeXtXLarge", 224),
    Model("densenet201", "large-applications", 10, "DenseNet201", 224),
    Model("resnet152v2", "large-applications", 10, "ResNet152V2", 224),
    Model("nasnetlarge", "large-applications", 5, "NASNetLarge", 331),
]

BY_NAME = {model.name: model for model in MODELS}
GROUPS = ("default", "applications", "other-applications", "large-applications")


def names(group):
    """The comma-separated names of a group, or of all of them ("all")."""
    return ",".join(m.name for m in MODELS if group in ("all", m.group))
