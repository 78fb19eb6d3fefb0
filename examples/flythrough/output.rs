//! Writing pictures: PNG (the `png` crate) and animated GIF (the `gif` crate).

use std::error::Error;
use std::fs::File;
use std::io::BufWriter;
use std::path::Path;

/// Writes 8-bit RGB pixels (row by row from the top) as a PNG file.
pub fn write_png(path: &Path, width: u32, height: u32, rgb: &[u8]) -> Result<(), Box<dyn Error>> {
    let mut encoder = png::Encoder::new(BufWriter::new(File::create(path)?), width, height);
    encoder.set_color(png::ColorType::Rgb);
    encoder.set_depth(png::BitDepth::Eight);
    encoder.set_compression(png::Compression::High);
    let mut writer = encoder.write_header()?;
    writer.write_image_data(rgb)?;
    writer.finish()?;
    Ok(())
}

/// An animated GIF being written, one frame at a time, looping forever.
pub struct GifWriter {
    encoder: gif::Encoder<BufWriter<File>>,
    width: u16,
    height: u16,
}

impl GifWriter {
    /// Starts a GIF of `width x height` pixels (each at most 65535).
    pub fn create(path: &Path, width: u32, height: u32) -> Result<GifWriter, Box<dyn Error>> {
        let (width, height) = (u16::try_from(width)?, u16::try_from(height)?);
        let mut encoder = gif::Encoder::new(BufWriter::new(File::create(path)?), width, height, &[])?;
        encoder.set_repeat(gif::Repeat::Infinite)?;
        Ok(GifWriter { encoder, width, height })
    }

    /// Adds a frame of 8-bit RGB pixels shown for `delay` hundredths of a second. Each frame
    /// gets its own 256-colour palette (NeuQuant).
    pub fn add(&mut self, rgb: &[u8], delay: u16) -> Result<(), Box<dyn Error>> {
        if rgb.len() != usize::from(self.width) * usize::from(self.height) * 3 {
            return Err("frame size does not match the GIF's".into());
        }
        let mut frame = gif::Frame::from_rgb_speed(self.width, self.height, rgb, 10);
        frame.delay = delay;
        self.encoder.write_frame(&frame)?;
        Ok(())
    }
}
