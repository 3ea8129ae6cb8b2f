//! GIF and APNG of the clip: frame k is the still figure at time k / fps (pixel for pixel for
//! APNG; within GIF's 256 colours), the frame count and delays match the clip, the loop matches
//! its mode, and the files open in decoders of their own (the `png` and `gif` crates' readers,
//! and the `image` crate's).

use graft::editor::view::figure::frames::{
    FrameFormat, FramePlan, clip_camera, encode_clip, frame_rgba,
};
use graft::editor::view::figure::{FigureOptions, Layers};
use graft::model::anim::{ClipSettings, LoopMode};
use graft::model::file;
use graft::model::progress::Progress;
use graft::model::scene::Scene;
use std::path::Path;

fn sample(name: &str) -> Scene {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("scenes")
        .join(format!("{name}.ron"));
    let mut scene = file::load(&path).unwrap();
    scene.update_world();
    scene
}

fn small() -> FigureOptions {
    FigureOptions {
        size: (160, 100),
        layers: Layers::default(),
        ..Default::default()
    }
}

fn no_images(_: &str) -> Option<String> {
    None
}

#[test]
fn frame_counts_and_delays_match_the_clip_and_its_mode() {
    let mut scene = sample("sword");
    let cases = [
        (LoopMode::Loop, 60, true),
        (LoopMode::Once, 61, false),
        (LoopMode::PingPong, 120, true),
    ];
    for (mode, frames, repeat) in cases {
        scene
            .set_clip(ClipSettings::new(2.0, mode).unwrap())
            .unwrap();
        let plan = FramePlan::for_clip(&scene, 30).unwrap();
        assert_eq!(
            (plan.times.len(), plan.repeat),
            (frames, repeat),
            "{mode:?}"
        );
        assert_eq!(plan.times[1], 1.0 / 30.0);
        let total: u32 = (0..frames).map(|k| plan.gif_delay(k) as u32).sum();
        assert_eq!(
            total,
            (100 * frames / 30) as u32,
            "{mode:?}: GIF delays add up to the clip"
        );
    }
    assert!(FramePlan::for_clip(&scene, 0).is_err());
    scene
        .set_clip(ClipSettings::new(600.0, LoopMode::Loop).unwrap())
        .unwrap();
    assert!(
        FramePlan::for_clip(&scene, 60).is_err(),
        "36,000 frames are refused"
    );
}

#[test]
fn apng_frames_are_the_still_figures_pixel_for_pixel() {
    let scene = sample("sword");
    let options = small();
    let plan = FramePlan::for_clip(&scene, 10).unwrap();
    let bytes = encode_clip(
        &scene,
        &options,
        &plan,
        FrameFormat::Apng,
        &no_images,
        &Progress::new(),
    )
    .unwrap()
    .unwrap();
    // The png crate's own reader: an animation of 20 frames, 1/10 s each, looping forever.
    let decoder = png::Decoder::new(std::io::Cursor::new(bytes.clone()));
    let mut reader = decoder.read_info().unwrap();
    let control = reader.info().animation_control().expect("an APNG");
    assert_eq!((control.num_frames, control.num_plays), (20, 0));
    let stills = FigureOptions {
        camera: Some(clip_camera(&scene, &options)),
        ..options.clone()
    };
    let mut buffer = vec![0; reader.output_buffer_size().unwrap()];
    for (k, &t) in plan.times.iter().enumerate() {
        let info = reader.next_frame(&mut buffer).unwrap();
        let frame = reader.info().frame_control().copied().unwrap();
        assert_eq!((frame.delay_num, frame.delay_den), (1, 10), "frame {k}");
        let (w, h, still) = frame_rgba(&scene, &stills, t, &no_images).unwrap();
        assert_eq!((info.width, info.height), (w, h));
        assert!(
            buffer[..info.buffer_size()] == still[..],
            "frame {k} is the still at {t} s"
        );
    }
    // And the image crate's APNG decoder reads it too.
    let image_frames = image::AnimationDecoder::into_frames(
        image::codecs::png::PngDecoder::new(std::io::Cursor::new(bytes))
            .unwrap()
            .apng()
            .unwrap(),
    )
    .collect_frames()
    .unwrap();
    assert_eq!(image_frames.len(), 20);
    // The arm swings: frames differ.
    assert_ne!(
        image_frames[0].buffer().as_raw(),
        image_frames[5].buffer().as_raw()
    );
}

#[test]
fn gif_frames_are_the_stills_in_256_colours_and_once_plays_once() {
    let mut scene = sample("sword");
    scene
        .set_clip(ClipSettings::new(2.0, LoopMode::Once).unwrap())
        .unwrap();
    let options = small();
    let plan = FramePlan::for_clip(&scene, 5).unwrap();
    let bytes = encode_clip(
        &scene,
        &options,
        &plan,
        FrameFormat::Gif,
        &no_images,
        &Progress::new(),
    )
    .unwrap()
    .unwrap();
    let mut decode = gif::DecodeOptions::new();
    decode.set_color_output(gif::ColorOutput::RGBA);
    let mut decoder = decode.read_info(std::io::Cursor::new(bytes)).unwrap();
    let stills = FigureOptions {
        camera: Some(clip_camera(&scene, &options)),
        ..options.clone()
    };
    let mut k = 0;
    while let Some(frame) = decoder.read_next_frame().unwrap() {
        assert_eq!(frame.delay, 20, "frame {k}: 1/5 s");
        let (_, _, still) = frame_rgba(&scene, &stills, plan.times[k], &no_images).unwrap();
        let diff: u64 = frame
            .buffer
            .iter()
            .zip(&still)
            .map(|(a, b)| (*a as i32 - *b as i32).unsigned_abs() as u64)
            .sum();
        let mean = diff as f64 / still.len() as f64;
        assert!(
            mean < 3.0,
            "frame {k}: mean channel difference {mean} from the still"
        );
        k += 1;
    }
    assert_eq!(k, plan.times.len(), "11 frames: the end is held");
    assert_eq!(
        decoder.repeat(),
        gif::Repeat::Finite(0),
        "Once: no loop extension"
    );
}

#[test]
fn drawing_frames_can_be_cancelled() {
    let scene = sample("solar");
    let plan = FramePlan::for_clip(&scene, 10).unwrap();
    let progress = Progress::new();
    progress.cancel();
    let out = encode_clip(
        &scene,
        &small(),
        &plan,
        FrameFormat::Gif,
        &no_images,
        &progress,
    )
    .unwrap();
    assert!(out.is_none());
}

/// Bad requests on the command line are refused with a reason, exit 1, and write nothing.
#[test]
fn bad_animation_requests_are_refused_and_write_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let scene = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes/sword.ron");
    let cases: [(&str, &[&str], &str); 3] = [
        ("x.bmp", &[], "an animated figure is .gif or .png"),
        (
            "x.gif",
            &["--fps", "0"],
            "frames per second must be 1 to 120",
        ),
        ("x.gif", &["--size", "0x5"], "expected WIDTHxHEIGHT"),
    ];
    for (name, extra, expected) in cases {
        let out = dir.path().join(name);
        let run = std::process::Command::new(env!("CARGO_BIN_EXE_graft"))
            .args([
                "figure",
                scene.to_str().unwrap(),
                "-o",
                out.to_str().unwrap(),
                "--animate",
            ])
            .args(extra)
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&run.stderr);
        assert_eq!(run.status.code(), Some(1), "{name} {extra:?}: {err}");
        assert!(err.contains(expected), "{name} {extra:?}: {err}");
        assert!(!out.exists(), "nothing written for {name}");
    }
}
