"""Writes graph-events/, TensorBoard's event file of a two-node graph as
TensorFlow 2.21's tf.compat.v1.summary.FileWriter writes it (EventFileTest
compares tfc's records with it). Needs tensorflow-cpu==2.21.0; tfc never
does.

usage: python test/unit/Inputs/make_events.py
"""
import glob
import os
import shutil

import tensorflow as tf

tf1 = tf.compat.v1
here = os.path.join(os.path.dirname(os.path.abspath(__file__)), "graph-events")
shutil.rmtree(here, ignore_errors=True)
graph = tf.Graph()
with graph.as_default():
    x = tf1.placeholder(tf.float32, [2], name="x")
    tf.negative(x, name="neg")
    writer = tf1.summary.FileWriter(here, graph=graph)
    writer.close()
# One name, whatever the time and host it was written at.
(written,) = glob.glob(os.path.join(here, "events.out.tfevents.*"))
os.rename(written, os.path.join(here, "events.out.tfevents.tensorflow"))
