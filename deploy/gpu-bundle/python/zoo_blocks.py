"""resnet50 and mobilenet_v2 as jetperf's `block` granularity splits them: torchvision's top-level
children, each expanded one level, with what forward() does between two modules (flatten, pooling)
at the start of the next block (docs/jobs.md, layers). torchvision's own modules when it is
importable; otherwise the same architectures written here in plain torch.nn."""
import torch
from torch import nn
from torch.nn import functional as F


class Bottleneck(nn.Module):
    def __init__(self, inplanes, planes, stride):
        super().__init__()
        width, out = planes, planes * 4
        self.conv1, self.bn1 = nn.Conv2d(inplanes, width, 1, bias=False), nn.BatchNorm2d(width)
        self.conv2, self.bn2 = nn.Conv2d(width, width, 3, stride, 1, bias=False), nn.BatchNorm2d(width)
        self.conv3, self.bn3 = nn.Conv2d(width, out, 1, bias=False), nn.BatchNorm2d(out)
        self.relu = nn.ReLU(inplace=True)
        self.downsample = None
        if stride != 1 or inplanes != out:
            self.downsample = nn.Sequential(nn.Conv2d(inplanes, out, 1, stride, bias=False), nn.BatchNorm2d(out))

    def forward(self, x):
        y = self.relu(self.bn1(self.conv1(x)))
        y = self.relu(self.bn2(self.conv2(y)))
        y = self.bn3(self.conv3(y))
        return self.relu(y + (self.downsample(x) if self.downsample is not None else x))


def _resnet50_plain():
    m = nn.Module()
    m.conv1, m.bn1, m.relu = nn.Conv2d(3, 64, 7, 2, 3, bias=False), nn.BatchNorm2d(64), nn.ReLU(inplace=True)
    m.maxpool = nn.MaxPool2d(3, 2, 1)
    inplanes = 64
    for i, (planes, blocks, stride) in enumerate([(64, 3, 1), (128, 4, 2), (256, 6, 2), (512, 3, 2)], 1):
        layers = []
        for b in range(blocks):
            layers.append(Bottleneck(inplanes, planes, stride if b == 0 else 1))
            inplanes = planes * 4
        setattr(m, "layer%d" % i, nn.Sequential(*layers))
    m.avgpool, m.fc = nn.AdaptiveAvgPool2d(1), nn.Linear(2048, 1000)
    return m


class InvertedResidual(nn.Module):
    def __init__(self, inp, oup, stride, expand):
        super().__init__()
        hidden = inp * expand
        layers = [] if expand == 1 else [_conv_bn_relu(inp, hidden, 1, 1, 1)]
        layers += [_conv_bn_relu(hidden, hidden, 3, stride, hidden),
                   nn.Conv2d(hidden, oup, 1, bias=False), nn.BatchNorm2d(oup)]
        self.conv = nn.Sequential(*layers)
        self.use_res = stride == 1 and inp == oup

    def forward(self, x):
        return x + self.conv(x) if self.use_res else self.conv(x)


def _conv_bn_relu(inp, oup, k, stride, groups):
    return nn.Sequential(nn.Conv2d(inp, oup, k, stride, (k - 1) // 2, groups=groups, bias=False),
                         nn.BatchNorm2d(oup), nn.ReLU6(inplace=True))


def _mobilenet_v2_plain():
    m = nn.Module()
    features, inp = [_conv_bn_relu(3, 32, 3, 2, 1)], 32
    for t, c, n, s in [(1, 16, 1, 1), (6, 24, 2, 2), (6, 32, 3, 2), (6, 64, 4, 2), (6, 96, 3, 1), (6, 160, 3, 2),
                       (6, 320, 1, 1)]:
        for i in range(n):
            features.append(InvertedResidual(inp, c, s if i == 0 else 1, t))
            inp = c
    features.append(_conv_bn_relu(inp, 1280, 1, 1, 1))
    m.features = nn.Sequential(*features)
    m.classifier = nn.Sequential(nn.Dropout(0.2), nn.Linear(1280, 1000))
    return m


def _model(name):
    try:
        import torchvision
        return getattr(torchvision.models, name)(), "torchvision " + torchvision.__version__
    except ImportError:
        return {"resnet50": _resnet50_plain, "mobilenet_v2": _mobilenet_v2_plain}[name](), "plain torch.nn"


def blocks(name):
    """[(module name, pre-op, module)] in jetperf's layer_index order, and where the model came from."""
    model, source = _model(name)
    out = []
    for child_name, child in model.named_children():
        pre = None
        if name == "resnet50" and child_name == "fc":
            pre = lambda x: torch.flatten(x, 1)
        if name == "mobilenet_v2" and child_name == "classifier":
            pre = lambda x: torch.flatten(F.adaptive_avg_pool2d(x, 1), 1)
        if isinstance(child, nn.Sequential):
            for i, sub in enumerate(child):
                out.append(("%s.%d" % (child_name, i), pre if i == 0 else None, sub))
        else:
            out.append((child_name, pre, child))
    return out, source
