// Package images decodes untrusted images within bounds and resizes them: the thumbnails of
// uploaded images, avatars and custom emoji.
//
// Nothing is decoded before its header is read (ReadHeader: the format, the canvas, the
// frames, and what a decode of it costs in memory, read without decoding a pixel). An image
// whose pixel count passes Zulip's limits (MaxPixels, MaxAnimatedPixels: zerver/lib/thumbnail.py's
// IMAGE_BOMB_TOTAL_PIXELS and IMAGE_MAX_ANIMATED_PIXELS) is refused with ErrTooLarge. What is
// decoded is paid for first from a Processor's memory budget (a weighted semaphore, so that
// concurrent decodes together stay within it, and a count of workers sized for the machine);
// an image whose decode alone would pass the budget is refused with ErrTooLarge, except a
// non-interlaced PNG, which is decoded row by row and shrunk as it streams (two rows and the
// output in memory, whatever its size), as libvips shrinks on load.
//
// The sizes are Zulip's: avatars are cropped to a centred square of AvatarSize and
// MediumAvatarSize (resize_avatar), emoji to EmojiSize (resize_emoji; an animated GIF keeps
// its animation within EmojiSize and gets a still PNG of its first frame), thumbnails fit
// within a box without being enlarged.
//
// It imports the standard library, golang.org/x/image (resampling, WebP) and
// golang.org/x/sync/semaphore; nothing of the project.
package images
